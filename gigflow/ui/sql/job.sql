-- The job page: the job, its source, and its Markdown: the job's own document when it was read from a payload
-- of many jobs (an ATS board, a feed), else the stored Markdown of the version it was read from.
SELECT j.id, j.title, j.url, j.external_id, j.fields, j.evidence, j.confidence, j.parser_key, j.parser_version,
       j.first_seen, j.last_seen, j.gone_at, j.source_id, c.name AS company,
       v.id AS version_id, v.url AS version_url, v.fetched_at,
       CASE WHEN d.job_id IS NOT NULL THEN d.markdown WHEN NOT j.parser_key = ANY(%(payload_parsers)s) THEN m.markdown
       END AS markdown,
       d.evidence_path AS document_path, j.parser_key = ANY(%(payload_parsers)s) AS payload_job
FROM jobs j
JOIN sources s ON s.id = j.source_id
JOIN companies c ON c.id = s.company_id
LEFT JOIN source_versions v ON v.id = j.source_version_id
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
LEFT JOIN job_documents d ON d.job_id = j.id
WHERE j.id = %(id)s
