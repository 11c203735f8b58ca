-- Messages of a mailbox source that failed to read, with how many runs tried them.
SELECT message_key, attempts FROM mailbox_failures WHERE source_id = %(source_id)s
