-- The unfinished run holding a source and spider (for the message a refused second crawl prints).
SELECT id, owner_host, owner_pid, started_at, heartbeat_at FROM crawl_runs
WHERE source_id = %(source_id)s AND spider = %(spider)s AND finished_at IS NULL
ORDER BY id DESC LIMIT 1
