-- The unfinished runs of a source and spider with the age of their last heartbeat: the caller (holding the crawl
-- lock) decides which owners are alive; a lock lost with a database connection is not proof of death.
SELECT id, owner_host, owner_pid, started_at, heartbeat_at,
       extract(epoch FROM now() - coalesce(heartbeat_at, started_at))::double precision AS silent_seconds
FROM crawl_runs
WHERE source_id = %(source_id)s AND spider = %(spider)s AND finished_at IS NULL
ORDER BY id DESC
