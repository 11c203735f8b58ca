-- Only the owner of a run still open finishes it: a run closed meanwhile (abandoned by a sweep or a crawl that
-- took over) stays as it was, and the caller sees no row.
UPDATE crawl_runs SET finished_at = now(), stats = %(stats)s, outcome = %(outcome)s
WHERE id = %(run_id)s AND finished_at IS NULL AND owner_token = %(token)s
RETURNING id
