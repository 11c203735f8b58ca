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
