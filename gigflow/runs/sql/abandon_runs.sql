-- Unfinished runs of this source and spider whose owner is gone (the caller holds their crawl lock and checked
-- their owners) are closed.
UPDATE crawl_runs SET finished_at = now(), outcome = 'incomplete:abandoned'
WHERE source_id = %(source_id)s AND spider = %(spider)s AND finished_at IS NULL AND id <> %(run_id)s
  AND id = ANY(%(dead)s)
RETURNING id, owner_host, owner_pid, started_at, heartbeat_at
