-- A message read after failing before is no longer a failure.
DELETE FROM mailbox_failures WHERE source_id = %(source_id)s AND message_key = ANY(%(keys)s)
