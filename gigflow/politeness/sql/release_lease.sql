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
