-- Unfinished runs whose heartbeat stopped: candidates for the sweep (which still checks the crawl lock).
SELECT id, source_id, spider, owner_host, owner_pid, started_at, heartbeat_at FROM crawl_runs
WHERE finished_at IS NULL AND coalesce(heartbeat_at, started_at) < now() - make_interval(secs => %(stale_seconds)s)
ORDER BY id
