SELECT j.canonical_key AS key, j.title, j.fields->>'employer' AS employer, j.fields->>'location' AS location, j.url,
       j.source_id, j.gone_at, v.sha256, j.source_version_id
FROM jobs j
LEFT JOIN source_versions v ON v.id = j.source_version_id
WHERE (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
  AND (%(include_gone)s OR j.gone_at IS NULL)
ORDER BY j.source_id, j.title
