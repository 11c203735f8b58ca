-- A page skipped as unchanged still lists its jobs: they count as seen by this run (and are not gone).
UPDATE jobs SET last_seen = now(), last_run_id = %(run_id)s, gone_at = NULL
WHERE source_id = %(source_id)s
  AND source_version_id IN (SELECT id FROM source_versions WHERE source_id = %(source_id)s AND url = %(url)s)
