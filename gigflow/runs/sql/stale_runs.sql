-- Every unfinished run with the age of its last heartbeat, read once by the sweep: it decides which owners are gone
-- (owner_alive) and closes those whose crawl lock it can take (sweep_abandon_runs.sql).
SELECT id, source_id, spider, owner_host, owner_pid, started_at, heartbeat_at,
       extract(epoch FROM now() - coalesce(heartbeat_at, started_at))::double precision AS silent_seconds
FROM crawl_runs
WHERE finished_at IS NULL
ORDER BY id
