-- Politeness (gigflow.politeness.queries): leases and backoff per politeness key, and the shared robots.txt cache
-- whose Crawl-delay lengthens a key's interval.

-- name: acquire_lease
-- A lease on the key, or how long to wait; taken on the liveness connection (holder_lock: its key, migration 0021).
SELECT lease_id, wait_seconds FROM politeness_acquire(%(key)s, %(interval)s, %(concurrency)s, %(lease_seconds)s, %(poll_seconds)s, %(holder)s, %(url)s, %(holder_lock)s)

-- name: release_lease
-- With concurrency 1 the next start also waits one interval from now (the response has arrived): the lease is
-- taken a moment before the request reaches the server, so counting from the lease alone could let two starts
-- come closer than the interval as the server sees them.
WITH released AS (DELETE FROM politeness_leases WHERE id = %(lease_id)s RETURNING key)
UPDATE politeness_keys k
SET next_allowed_at = GREATEST(k.next_allowed_at, clock_timestamp() + make_interval(secs => GREATEST(
        %(interval)s, COALESCE((SELECT max(crawl_delay) FROM robots_cache r WHERE r.politeness_key = k.key), 0)))),
    updated_at = clock_timestamp()
FROM released
WHERE k.key = released.key AND %(hold)s

-- name: record_success
-- A response on the key: its consecutive errors start again from zero.
UPDATE politeness_keys SET error_count = 0, updated_at = clock_timestamp() WHERE key = %(key)s AND error_count <> 0

-- name: record_failure
-- One more consecutive error on this key; the caller turns the count into a backoff.
INSERT INTO politeness_keys (key, error_count) VALUES (%(key)s, 1)
ON CONFLICT (key) DO UPDATE SET error_count = politeness_keys.error_count + 1, updated_at = clock_timestamp()
RETURNING error_count

-- name: push_next_allowed
-- Never pulls the next allowed time earlier: Retry-After and backoff only ever push it later.
UPDATE politeness_keys
SET next_allowed_at = GREATEST(next_allowed_at, clock_timestamp() + make_interval(secs => %(delay)s)),
    updated_at = clock_timestamp()
WHERE key = %(key)s
RETURNING next_allowed_at

-- name: get_robots
-- The shared copy of an origin's robots.txt, unless older than %(ttl)s seconds.
SELECT origin, http_status, body, crawl_delay, fetched_at FROM robots_cache
WHERE origin = %(origin)s AND fetched_at > now() - make_interval(secs => %(ttl)s)

-- name: put_robots
-- A robots.txt read (by any process) replaces the origin's shared copy; its Crawl-delay applies to the key.
INSERT INTO robots_cache (origin, politeness_key, http_status, body, crawl_delay, fetched_at)
VALUES (%(origin)s, %(politeness_key)s, %(http_status)s, %(body)s, %(crawl_delay)s, now())
ON CONFLICT (origin) DO UPDATE SET
    politeness_key = EXCLUDED.politeness_key,
    http_status = EXCLUDED.http_status,
    body = EXCLUDED.body,
    crawl_delay = EXCLUDED.crawl_delay,
    fetched_at = EXCLUDED.fetched_at
