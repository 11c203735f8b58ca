-- Each listed source's last finished run: its outcome and health (jobs, mean confidence, drift).
SELECT DISTINCT ON (r.source_id) r.source_id, r.id AS run_id, r.outcome, h.health ->> 'jobs' AS run_jobs,
       h.health ->> 'mean_confidence' AS mean_confidence, h.drift,
       r.stats ->> 'gigflow/listing_script_rendered' AS script_rendered
FROM crawl_runs r LEFT JOIN run_health h ON h.run_id = r.id
WHERE r.source_id = ANY(%(ids)s) AND r.finished_at IS NOT NULL
ORDER BY r.source_id, r.id DESC
