-- Close, as incomplete:abandoned, the runs the sweep found dead and holds the crawl lock of, in one statement;
-- a run that beat since the sweep read it (its heartbeat moved) is alive after all and stays open.
UPDATE crawl_runs r SET finished_at = now(), outcome = 'incomplete:abandoned'
FROM unnest(%(ids)s::bigint[], %(heartbeats)s::timestamptz[]) AS dead(id, heartbeat_at)
WHERE r.id = dead.id AND r.finished_at IS NULL AND r.heartbeat_at IS NOT DISTINCT FROM dead.heartbeat_at
RETURNING r.id, r.source_id, r.spider, r.owner_host, r.owner_pid, r.started_at, r.heartbeat_at
