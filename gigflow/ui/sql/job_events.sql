-- The job page's history: why the job changed or disappeared, per run, oldest first.
SELECT e.at, e.kind, e.fields, e.run_id, r.outcome AS run_outcome
FROM job_events e
LEFT JOIN crawl_runs r ON r.id = e.run_id
WHERE e.job_id = %(id)s
ORDER BY e.id
LIMIT %(limit)s
