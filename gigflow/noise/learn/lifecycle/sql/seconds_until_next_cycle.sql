-- Seconds until this configuration may start another automatic review cycle (<= 0: now).
SELECT coalesce(extract(epoch FROM (config -> 'noiseReview' ->> 'lastAutomaticAt')::timestamptz
                               + make_interval(secs => %(cycle_seconds)s) - now()), 0)::float8 AS wait
FROM configurations WHERE id = %(configuration_id)s
