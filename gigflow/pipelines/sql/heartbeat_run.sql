UPDATE crawl_runs SET heartbeat_at = now() WHERE id = %(run_id)s AND finished_at IS NULL
