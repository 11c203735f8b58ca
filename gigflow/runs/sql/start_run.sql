INSERT INTO crawl_runs (source_id, spider, owner_host, owner_pid, owner_token, heartbeat_at)
VALUES (%(source_id)s, %(spider)s, %(host)s, %(pid)s, %(token)s, now())
RETURNING id
