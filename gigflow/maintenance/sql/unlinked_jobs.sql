-- Live per-source jobs not yet linked to a canonical job (oldest first), with their source's company.
SELECT j.id, j.source_id, j.title, j.url, j.external_id, j.parser_key, j.fields, c.name AS company
FROM jobs j
JOIN sources s ON s.id = j.source_id
JOIN companies c ON c.id = s.company_id
LEFT JOIN canonical_links l ON l.job_id = j.id
WHERE l.job_id IS NULL AND j.gone_at IS NULL
  AND (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
ORDER BY j.id
