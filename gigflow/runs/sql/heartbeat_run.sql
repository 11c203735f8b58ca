-- No row: the run was closed by someone else (or is not ours); its crawl must stop.
UPDATE crawl_runs SET heartbeat_at = now()
WHERE id = %(run_id)s AND finished_at IS NULL AND owner_token IS NOT DISTINCT FROM %(token)s
RETURNING id
