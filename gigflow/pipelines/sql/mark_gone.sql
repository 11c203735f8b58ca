-- Jobs of this source not seen by a complete run are gone: marked, never deleted.
UPDATE jobs SET gone_at = now()
WHERE source_id = %(source_id)s AND gone_at IS NULL AND (last_run_id IS DISTINCT FROM %(run_id)s)
