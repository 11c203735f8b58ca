-- A page skipped as unchanged still lists its jobs: they count as seen by this run (and are not gone); a job
-- that was gone is revived, with its event.
WITH old AS (
    SELECT id, gone_at FROM jobs
    WHERE source_id = %(source_id)s
      AND source_version_id IN (SELECT id FROM source_versions WHERE source_id = %(source_id)s AND url = %(url)s)
    FOR UPDATE
), touched AS (
    UPDATE jobs j SET last_seen = now(), last_run_id = %(run_id)s, gone_at = NULL
    FROM old WHERE j.id = old.id
    RETURNING j.id, old.gone_at AS was_gone
), revived AS (
    INSERT INTO job_events (job_id, run_id, kind)
    SELECT id, %(run_id)s, 'revived' FROM touched WHERE was_gone IS NOT NULL
    RETURNING 1
)
SELECT (SELECT count(*) FROM touched) AS touched, (SELECT count(*) FROM revived) AS revived
