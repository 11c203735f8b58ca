-- The stats of this spider's last complete run of the source (per-listing job link counts).
SELECT stats FROM crawl_runs
WHERE source_id = %(source_id)s AND spider = %(spider)s AND outcome = 'finished' AND id <> %(run_id)s
ORDER BY id DESC LIMIT 1
