-- One page of jobs in (source_id, title, id) order, keyset after the job %(after)s (index jobs_listing).
SELECT j.id, j.canonical_key AS key, j.title, j.fields->>'employer' AS employer, j.fields->>'location' AS location, j.url,
       j.source_id, j.gone_at, v.sha256, j.source_version_id
FROM jobs j
LEFT JOIN source_versions v ON v.id = j.source_version_id
WHERE (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
  AND (%(include_gone)s OR j.gone_at IS NULL)
  AND (%(after)s::bigint IS NULL
       OR (j.source_id, j.title, j.id) > (SELECT a.source_id, a.title, a.id FROM jobs a WHERE a.id = %(after)s))
ORDER BY j.source_id, j.title, j.id
LIMIT %(limit)s
