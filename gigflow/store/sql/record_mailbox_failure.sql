-- A message that failed to read: recorded (its key and the error) and counted; later runs retry it until
-- MAILBOX_MAX_ATTEMPTS, then skip it (`scrapy sources list` shows it).
INSERT INTO mailbox_failures (source_id, message_key, error) VALUES (%(source_id)s, %(message_key)s, %(error)s)
ON CONFLICT (source_id, message_key) DO UPDATE
    SET attempts = mailbox_failures.attempts + 1, error = EXCLUDED.error, last_failed = now()
RETURNING attempts
