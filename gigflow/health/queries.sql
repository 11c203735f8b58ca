-- Health (gigflow.health.queries): run_health and listing_snapshots, and health's reads of runs, sources and their
-- status history. Three queries write tables another room owns (see the module's docstring).

-- name: insert_run_health
-- The run's health row, beside its decided outcome (a retried finalization writes it again).
INSERT INTO run_health (run_id, source_id, spider, complete, health, drift)
VALUES (%(run_id)s, %(source_id)s, %(spider)s, %(complete)s, %(health)s, %(drift)s)
ON CONFLICT (run_id) DO UPDATE SET complete = EXCLUDED.complete, health = EXCLUDED.health, drift = EXCLUDED.drift

-- name: recent_complete_health
-- The health of this spider's recent complete runs of the source, newest first: the baseline drift is judged by.
SELECT health FROM run_health
WHERE source_id = %(source_id)s AND spider = %(spider)s AND complete AND run_id <> %(run_id)s
ORDER BY run_id DESC LIMIT %(limit)s

-- name: insert_snapshot
-- A listing page as the run saw it: what a later repair runs its selector variants on.
INSERT INTO listing_snapshots (source_id, run_id, url, sha256, content_type, body)
VALUES (%(source_id)s, %(run_id)s, %(url)s, %(sha256)s, %(content_type)s, %(body)s)

-- name: prune_snapshots
-- Keep the newest %(keep)s snapshots of each listing URL of the source.
DELETE FROM listing_snapshots s
USING (SELECT id, row_number() OVER (PARTITION BY url ORDER BY id DESC) AS n
       FROM listing_snapshots WHERE source_id = %(source_id)s) ranked
WHERE s.id = ranked.id AND ranked.n > %(keep)s

-- name: last_complete_job_links
-- The job links of the source's last complete run of a strategy: what a repair must reproduce.
SELECT run_id, health -> 'job_links' AS job_links FROM run_health
WHERE source_id = %(source_id)s AND spider = %(spider)s AND complete
ORDER BY run_id DESC LIMIT 1

-- name: latest_snapshots
-- The listing snapshots of the source's latest run that stored any, one per URL.
SELECT DISTINCT ON (url) id, run_id, url, content_type, body, fetched_at
FROM listing_snapshots
WHERE source_id = %(source_id)s
  AND run_id = (SELECT max(run_id) FROM listing_snapshots WHERE source_id = %(source_id)s)
ORDER BY url, id DESC

-- name: list_health
-- Each listed source's last finished run: its outcome and health (jobs, mean confidence, drift).
SELECT DISTINCT ON (r.source_id) r.source_id, r.id AS run_id, r.outcome, h.health ->> 'jobs' AS run_jobs,
       h.health ->> 'mean_confidence' AS mean_confidence, h.drift,
       r.stats ->> 'gigflow/listing_script_rendered' AS script_rendered
FROM crawl_runs r LEFT JOIN run_health h ON h.run_id = r.id
WHERE r.source_id = ANY(%(ids)s) AND r.finished_at IS NOT NULL
ORDER BY r.source_id, r.id DESC

-- name: recent_runs
-- The source's latest finished runs (every strategy), newest first, with their health and drift.
SELECT r.id, r.spider, r.outcome, r.stats, r.finished_at, h.health, h.drift, h.complete
FROM crawl_runs r
LEFT JOIN run_health h ON h.run_id = r.id
WHERE r.source_id = %(source_id)s AND r.finished_at IS NOT NULL
ORDER BY r.id DESC LIMIT %(limit)s

-- name: listing_bodies
-- The newest snapshot of each listing URL (a scratch database: `sources try`).
SELECT DISTINCT ON (url) url, body FROM listing_snapshots ORDER BY url, id
