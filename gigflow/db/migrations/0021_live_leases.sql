-- Politeness leases whose holder is known to be alive. A holder takes a session advisory lock (its liveness key)
-- on the connection it acquires leases on and records the key in each lease; PostgreSQL drops that lock the moment
-- the holder's connection ends (a killed process included), so an acquirer that finds the key's leases full asks
-- pg_locks whether their holders live and deletes the leases of dead ones. expires_at stays as the bound for a
-- holder that lives but hangs. Leases without a liveness key (older clients) only expire.
ALTER TABLE politeness_leases ADD COLUMN holder_lock bigint;

DROP FUNCTION politeness_acquire(text, double precision, integer, double precision, double precision, text, text);

CREATE FUNCTION gigflow_holder_alive(p_lock bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT p_lock IS NULL OR EXISTS (
        SELECT 1 FROM pg_locks
        WHERE locktype = 'advisory' AND granted AND objsubid = 1
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((classid::bigint << 32) | objid::bigint) = p_lock)
$$;

CREATE FUNCTION politeness_acquire(p_key text, p_interval double precision, p_concurrency integer,
                                   p_lease_seconds double precision, p_poll_seconds double precision,
                                   p_holder text, p_url text, p_holder_lock bigint DEFAULT NULL)
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
        -- Full: only now is it worth asking whether the holders live (a killed crawl frees its key at once).
        DELETE FROM politeness_leases WHERE key = p_key AND NOT gigflow_holder_alive(holder_lock);
        SELECT count(*) INTO live FROM politeness_leases WHERE key = p_key;
        IF live >= p_concurrency THEN
            RETURN QUERY SELECT NULL::bigint, p_poll_seconds;
            RETURN;
        END IF;
    END IF;
    SELECT GREATEST(p_interval, COALESCE(max(crawl_delay), 0)) INTO interval_s
    FROM robots_cache WHERE politeness_key = p_key;
    INSERT INTO politeness_leases (key, holder, url, acquired_at, expires_at, holder_lock)
    VALUES (p_key, p_holder, p_url, now_ts, now_ts + make_interval(secs => p_lease_seconds), p_holder_lock)
    RETURNING id INTO new_lease;
    UPDATE politeness_keys SET next_allowed_at = now_ts + make_interval(secs => interval_s), updated_at = now_ts
    WHERE key = p_key;
    RETURN QUERY SELECT new_lease, 0::double precision;
END;
$$;
