-- Politeness shared by every crawl process: one row per politeness key (registrable domain or provider host),
-- leases that expire by themselves, and robots.txt cached per origin.
-- UNLOGGED: this is short-lived coordination state and a cache; skipping the WAL makes each lease a fast commit
-- (a crash empties these tables, which only means robots.txt is fetched again and keys start afresh).

CREATE UNLOGGED TABLE politeness_keys (
    key              text PRIMARY KEY,
    -- Earliest start of the next request: last start + interval, pushed further by Retry-After and backoff.
    next_allowed_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    error_count      integer NOT NULL DEFAULT 0,
    updated_at       timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE UNLOGGED TABLE politeness_leases (
    id           bigserial PRIMARY KEY,
    key          text NOT NULL REFERENCES politeness_keys(key) ON DELETE CASCADE,
    holder       text NOT NULL,
    url          text,
    acquired_at  timestamptz NOT NULL DEFAULT clock_timestamp(),
    -- A process that dies keeps its lease only until here.
    expires_at   timestamptz NOT NULL
);
CREATE INDEX politeness_leases_key ON politeness_leases (key);

CREATE UNLOGGED TABLE robots_cache (
    origin          text PRIMARY KEY,          -- scheme://host:port
    politeness_key  text NOT NULL,
    http_status     integer NOT NULL,
    body            text NOT NULL,
    crawl_delay     double precision,          -- seconds, already capped
    fetched_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX robots_cache_key ON robots_cache (politeness_key);

-- Take a lease on p_key when fewer than p_concurrency live leases exist and its next allowed time has come.
-- Returns the lease id, or NULL and how many seconds to wait before asking again. The key row is locked, so
-- concurrent callers in any process serialise here. The interval is the larger of the caller's policy and the
-- largest robots.txt Crawl-delay seen for the key.
CREATE FUNCTION politeness_acquire(p_key text, p_interval double precision, p_concurrency integer,
                                   p_lease_seconds double precision, p_poll_seconds double precision,
                                   p_holder text, p_url text)
RETURNS TABLE (lease_id bigint, wait_seconds double precision)
LANGUAGE plpgsql AS $$
DECLARE
    key_row      politeness_keys%ROWTYPE;
    live         integer;
    interval_s   double precision;
    now_ts       timestamptz;
    new_lease    bigint;
BEGIN
    INSERT INTO politeness_keys (key) VALUES (p_key) ON CONFLICT (key) DO NOTHING;
    SELECT * INTO key_row FROM politeness_keys WHERE key = p_key FOR UPDATE;
    now_ts := clock_timestamp();
    IF key_row.next_allowed_at > now_ts THEN
        RETURN QUERY SELECT NULL::bigint, extract(epoch FROM key_row.next_allowed_at - now_ts)::double precision;
        RETURN;
    END IF;
    DELETE FROM politeness_leases WHERE key = p_key AND expires_at <= now_ts;
    SELECT count(*) INTO live FROM politeness_leases WHERE key = p_key;
    IF live >= p_concurrency THEN
        RETURN QUERY SELECT NULL::bigint, p_poll_seconds;
        RETURN;
    END IF;
    SELECT GREATEST(p_interval, COALESCE(max(crawl_delay), 0)) INTO interval_s
    FROM robots_cache WHERE politeness_key = p_key;
    INSERT INTO politeness_leases (key, holder, url, acquired_at, expires_at)
    VALUES (p_key, p_holder, p_url, now_ts, now_ts + make_interval(secs => p_lease_seconds))
    RETURNING id INTO new_lease;
    UPDATE politeness_keys SET next_allowed_at = now_ts + make_interval(secs => interval_s), updated_at = now_ts
    WHERE key = p_key;
    RETURN QUERY SELECT new_lease, 0::double precision;
END;
$$;
