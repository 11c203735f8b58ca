-- Finished runs older than the cutoff, unless one of its source and spider's newest %(keep)s (health baselines and
-- the review app's chart), its last complete run (the empty-listing check), or named by a job or a job event.
-- Their run_health rows go with them (ON DELETE CASCADE); listing snapshots keep their data, without the run.
WITH ranked AS (
    SELECT id, row_number() OVER (PARTITION BY source_id, spider ORDER BY id DESC) AS age
    FROM crawl_runs
), last_complete AS (
    SELECT DISTINCT ON (source_id, spider) id FROM crawl_runs WHERE outcome = 'finished'
    ORDER BY source_id, spider, id DESC
)
DELETE FROM crawl_runs r
WHERE r.finished_at < now() - %(days)s::float8 * interval '1 day'
  AND NOT EXISTS (SELECT 1 FROM ranked k WHERE k.id = r.id AND k.age <= %(keep)s)
  AND NOT EXISTS (SELECT 1 FROM last_complete c WHERE c.id = r.id)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.last_run_id = r.id)
  AND NOT EXISTS (SELECT 1 FROM job_events e WHERE e.run_id = r.id)
RETURNING r.id
