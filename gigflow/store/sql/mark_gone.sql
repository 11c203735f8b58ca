-- Jobs of this source last seen by this spider but not by this complete run are gone: marked, never deleted,
-- each with a 'gone' event. Scoped to the spider, so crawling one strategy of a source never retires the jobs
-- another strategy found.
WITH gone AS (
    UPDATE jobs SET gone_at = now()
    WHERE source_id = %(source_id)s AND gone_at IS NULL AND (last_run_id IS DISTINCT FROM %(run_id)s)
      AND last_run_id IN (SELECT id FROM crawl_runs WHERE source_id = %(source_id)s AND spider = %(spider)s)
    RETURNING id
)
INSERT INTO job_events (job_id, run_id, kind) SELECT id, %(run_id)s, 'gone' FROM gone
