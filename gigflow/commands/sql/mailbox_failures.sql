-- Mailbox messages that failed to read, those given up (MAILBOX_MAX_ATTEMPTS reached) first.
SELECT source_id, message_key, attempts, error, last_failed, attempts >= %(max_attempts)s AS given_up
FROM mailbox_failures
ORDER BY attempts >= %(max_attempts)s DESC, source_id, message_key
