-- Recrawls rewrite only what changed (update_job.sql, touch_job.sql). An unchanged job's sighting (last_seen,
-- last_run_id) touches no indexed column once jobs_last_run is gone, so it can be a HOT update (no index entries,
-- no index bloat); every query on last_run_id also filters on source_id (jobs_source). Free space per page keeps
-- room for those new row versions.
DROP INDEX IF EXISTS jobs_last_run;
ALTER TABLE jobs SET (fillfactor = 85);
