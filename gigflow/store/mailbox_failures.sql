-- mailbox_failures (gigflow.store.mailbox_failures): messages of a mailbox source that failed to read.

-- name: record_failure
-- A message that failed to read: recorded (its key and the error) and counted; later runs retry it until
-- MAILBOX_MAX_ATTEMPTS, then skip it (`scrapy sources list` shows it).
INSERT INTO mailbox_failures (source_id, message_key, error) VALUES (%(source_id)s, %(message_key)s, %(error)s)
ON CONFLICT (source_id, message_key) DO UPDATE
    SET attempts = mailbox_failures.attempts + 1, error = EXCLUDED.error, last_failed = now()
RETURNING attempts

-- name: clear_failures
-- A message read after failing before is no longer a failure.
DELETE FROM mailbox_failures WHERE source_id = %(source_id)s AND message_key = ANY(%(keys)s)

-- name: failures
-- Messages of a mailbox source that failed to read, with how many runs tried them.
SELECT message_key, attempts FROM mailbox_failures WHERE source_id = %(source_id)s

-- name: all_failures
-- Mailbox messages that failed to read, those given up (MAILBOX_MAX_ATTEMPTS reached) first.
SELECT source_id, message_key, attempts, error, last_failed, attempts >= %(max_attempts)s AS given_up
FROM mailbox_failures
ORDER BY attempts >= %(max_attempts)s DESC, source_id, message_key
