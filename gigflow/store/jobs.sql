-- jobs and job_events (gigflow.store.jobs): jobs keyed by (source, canonical key), never deleted, with their history.

-- name: jobs_with_external_id
-- Every job of the source carrying this external id: tells whether the id has proved to be an identity.
SELECT canonical_key, url, last_run_id FROM jobs WHERE source_id = %(source_id)s AND external_id = %(external_id)s

-- name: rekey_job
-- An id found shared by two pages of one run is no identity: the job stored under it moves to its URL key
-- (unless a job already holds that key).
UPDATE jobs SET canonical_key = %(new_key)s
WHERE source_id = %(source_id)s AND canonical_key = %(old_key)s
  AND NOT EXISTS (SELECT 1 FROM jobs WHERE source_id = %(source_id)s AND canonical_key = %(new_key)s)

-- name: find_job
-- The stored job under this source's key, locked for the upsert that compares it.
SELECT id, title, url, external_id, fields, parser_version, gone_at
FROM jobs WHERE source_id = %(source_id)s AND canonical_key = %(canonical_key)s
FOR UPDATE

-- name: insert_job
-- A job first seen. A concurrent insert of the same key (another strategy of the source) returns no row.
INSERT INTO jobs (canonical_key, source_id, source_version_id, title, url, external_id, fields, evidence,
                  confidence, parser_key, parser_version, last_run_id)
VALUES (%(canonical_key)s, %(source_id)s, %(source_version_id)s, %(title)s, %(url)s, %(external_id)s, %(fields)s,
        %(evidence)s, %(confidence)s, %(parser_key)s, %(parser_version)s, %(run_id)s)
ON CONFLICT (source_id, canonical_key) DO NOTHING
RETURNING id

-- name: update_job
-- A job seen again whose content changed: its latest content, seen by this run (last_run_id kept when re-extracted
-- outside a run). No row when nothing but the sighting would change: the caller then only touches it
-- (touch_job), so an unchanged job is never rewritten whole.
UPDATE jobs SET
    source_version_id = %(source_version_id)s,
    title = %(title)s,
    url = %(url)s,
    external_id = %(external_id)s,
    fields = %(fields)s,
    evidence = %(evidence)s,
    confidence = %(confidence)s,
    parser_key = %(parser_key)s,
    parser_version = %(parser_version)s,
    last_seen = CASE WHEN %(run_id)s::bigint IS NULL THEN last_seen ELSE now() END,
    last_run_id = coalesce(%(run_id)s::bigint, last_run_id),
    gone_at = CASE WHEN %(run_id)s::bigint IS NULL THEN gone_at ELSE NULL END
WHERE id = %(id)s
  AND (source_version_id, title, url, external_id, fields, evidence, confidence, parser_key, parser_version,
       gone_at IS NULL OR %(run_id)s::bigint IS NULL)
      IS DISTINCT FROM
      (%(source_version_id)s::bigint, %(title)s::text, %(url)s::text, %(external_id)s::text, %(fields)s::jsonb,
       %(evidence)s::jsonb, %(confidence)s::real, %(parser_key)s::text, %(parser_version)s::text, true)
RETURNING id

-- name: touch_job
-- An unchanged job seen by this run: only the sighting, and only once per run. No indexed column changes
-- (migration 0023 dropped the index on last_run_id), so PostgreSQL can write it as a HOT update.
UPDATE jobs SET last_seen = now(), last_run_id = %(run_id)s
WHERE id = %(id)s AND last_run_id IS DISTINCT FROM %(run_id)s

-- name: insert_job_event
INSERT INTO job_events (job_id, run_id, kind, fields) VALUES (%(job_id)s, %(run_id)s, %(kind)s, %(fields)s)

-- name: run_job_counts
-- Jobs this run saw, and live jobs a complete run of this spider would mark gone.
SELECT count(*) FILTER (WHERE last_run_id = %(run_id)s) AS seen,
       count(*) FILTER (WHERE gone_at IS NULL AND last_run_id IS DISTINCT FROM %(run_id)s
                          AND last_run_id IN (SELECT id FROM crawl_runs
                                              WHERE source_id = %(source_id)s AND spider = %(spider)s)) AS at_risk
FROM jobs WHERE source_id = %(source_id)s

-- name: mark_gone
-- Jobs of this source last seen by this spider but not by this complete run are gone: marked, never deleted,
-- each with a 'gone' event. Scoped to the spider, so crawling one strategy of a source never retires the jobs
-- another strategy found. Only the owner of the run, still open, marks (the run row is locked here, so no one
-- closes it meanwhile), and never a job a later run of the source has seen.
WITH owned AS (
    SELECT id FROM crawl_runs
    WHERE id = %(run_id)s AND finished_at IS NULL AND owner_token = %(token)s
    FOR UPDATE
), gone AS (
    UPDATE jobs SET gone_at = now()
    WHERE source_id = %(source_id)s AND gone_at IS NULL AND last_run_id < %(run_id)s
      AND last_run_id IN (SELECT id FROM crawl_runs WHERE source_id = %(source_id)s AND spider = %(spider)s)
      AND EXISTS (SELECT 1 FROM owned)
    RETURNING id
)
INSERT INTO job_events (job_id, run_id, kind) SELECT id, %(run_id)s, 'gone' FROM gone

-- name: job_history
-- A job's events, oldest first. KEY is the job's id, its canonical key, or the URL or external id it was built from.
SELECT e.at, j.id AS job_id, j.source_id, j.canonical_key, e.kind, array_to_string(e.fields, ', ') AS fields, e.run_id
FROM jobs j
JOIN job_events e ON e.job_id = j.id
WHERE (j.canonical_key IN (%(key)s, 'id:' || %(key)s, 'url:' || %(key)s) OR j.id = %(job_id)s::bigint)
  AND (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
ORDER BY j.source_id, j.id, e.id

-- name: list_jobs
-- One page of jobs in (source_id, title, id) order, keyset after the job %(after)s (index jobs_listing).
SELECT j.id, j.canonical_key AS key, j.title, j.fields->>'employer' AS employer, j.fields->>'location' AS location, j.url,
       j.source_id, j.gone_at, v.sha256, j.source_version_id
FROM jobs j
LEFT JOIN source_versions v ON v.id = j.source_version_id
WHERE (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
  AND (%(include_gone)s OR j.gone_at IS NULL)
  AND (%(after)s::bigint IS NULL
       OR (j.source_id, j.title, j.id) > (SELECT a.source_id, a.title, a.id FROM jobs a WHERE a.id = %(after)s))
ORDER BY j.source_id, j.title, j.id
LIMIT %(limit)s

-- name: same_title_pairs
-- Jobs first seen in this run whose title an earlier job of the source (not seen in this run) carried:
-- pairs of (earlier URL, new URL), the sign of a job URL that changed under the same job.
SELECT DISTINCT ON (new.id) old.url AS old_url, new.url AS new_url
FROM jobs new
JOIN crawl_runs r ON r.id = %(run_id)s
JOIN jobs old ON old.source_id = new.source_id AND old.title = new.title AND old.id <> new.id
             AND old.last_run_id IS DISTINCT FROM %(run_id)s AND old.first_seen < r.started_at
WHERE new.source_id = %(source_id)s AND new.last_run_id = %(run_id)s AND new.first_seen >= r.started_at
  AND new.url IS NOT NULL AND old.url IS NOT NULL
ORDER BY new.id, old.last_seen DESC
LIMIT 500

-- name: live_job_keys
-- Every live job of one source with what its exact identity keys are built from (to find keys it shares).
SELECT j.id, j.title, j.url, j.external_id, j.parser_key, j.fields->>'apply_url' AS apply_url,
       j.fields->>'location' AS location
FROM jobs j
WHERE j.source_id = %(source_id)s AND j.gone_at IS NULL

-- name: undocumented_payload_jobs
-- Live payload jobs (ATS boards, feeds) whose per-job Markdown is missing or from an older stored version.
SELECT j.id, j.url, j.source_version_id, j.evidence->'description'->>'snippet_or_path' AS path
FROM jobs j
LEFT JOIN job_documents d ON d.job_id = j.id
WHERE j.gone_at IS NULL AND j.source_version_id IS NOT NULL
  AND j.parser_key = ANY(%(parser_keys)s::text[])
  AND j.evidence->'description'->>'snippet_or_path' IS NOT NULL
  AND (d.job_id IS NULL OR d.source_version_id IS DISTINCT FROM j.source_version_id)
  AND (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
ORDER BY j.source_version_id, j.id

-- name: all_jobs
-- Every job with its version, fields and evidence (a scratch database: `sources try`).
SELECT source_version_id, title, url, fields, evidence, confidence, parser_key FROM jobs ORDER BY id
