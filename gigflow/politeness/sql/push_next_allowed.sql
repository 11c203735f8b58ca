-- Never pulls the next allowed time earlier: Retry-After and backoff only ever push it later.
UPDATE politeness_keys
SET next_allowed_at = GREATEST(next_allowed_at, clock_timestamp() + make_interval(secs => %(delay)s)),
    updated_at = clock_timestamp()
WHERE key = %(key)s
RETURNING next_allowed_at
