-- The source's latest finished runs (every strategy), newest first, with their health and drift.
SELECT r.id, r.spider, r.outcome, r.stats, r.finished_at, h.health, h.drift, h.complete
FROM crawl_runs r
LEFT JOIN run_health h ON h.run_id = r.id
WHERE r.source_id = %(source_id)s AND r.finished_at IS NOT NULL
ORDER BY r.id DESC LIMIT %(limit)s
