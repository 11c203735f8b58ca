-- One more consecutive error on this key; the caller turns the count into a backoff.
INSERT INTO politeness_keys (key, error_count) VALUES (%(key)s, 1)
ON CONFLICT (key) DO UPDATE SET error_count = politeness_keys.error_count + 1, updated_at = clock_timestamp()
RETURNING error_count
