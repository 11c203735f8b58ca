-- A job's events, oldest first. KEY is the job's id, its canonical key, or the URL or external id it was built from.
SELECT e.at, j.id AS job_id, j.source_id, j.canonical_key, e.kind, array_to_string(e.fields, ', ') AS fields, e.run_id
FROM jobs j
JOIN job_events e ON e.job_id = j.id
WHERE (j.canonical_key IN (%(key)s, 'id:' || %(key)s, 'url:' || %(key)s) OR j.id = %(job_id)s::bigint)
  AND (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
ORDER BY j.source_id, j.id, e.id
