-- The job links of the source's last complete run of a strategy: what a repair must reproduce.
SELECT run_id, health -> 'job_links' AS job_links FROM run_health
WHERE source_id = %(source_id)s AND spider = %(spider)s AND complete
ORDER BY run_id DESC LIMIT 1
