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
