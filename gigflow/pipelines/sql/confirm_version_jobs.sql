-- A 304 re-confirms the jobs last extracted from that version: seen by this run, so not marked gone.
UPDATE jobs SET last_seen = now(), last_run_id = %(run_id)s, gone_at = NULL
WHERE source_version_id = %(source_version_id)s
