UPDATE crawl_runs SET finished_at = now(), stats = %(stats)s, outcome = %(outcome)s WHERE id = %(run_id)s
