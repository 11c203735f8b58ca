-- Live payload jobs (ATS boards, feeds) whose per-job Markdown is missing or from an older stored version.
SELECT j.id, j.url, j.source_version_id, j.evidence->'description'->>'snippet_or_path' AS path
FROM jobs j
LEFT JOIN job_documents d ON d.job_id = j.id
WHERE j.gone_at IS NULL AND j.source_version_id IS NOT NULL
  AND j.parser_key = ANY(%(parser_keys)s::text[])
  AND j.evidence->'description'->>'snippet_or_path' IS NOT NULL
  AND (d.job_id IS NULL OR d.source_version_id IS DISTINCT FROM j.source_version_id)
  AND (%(source_id)s::text IS NULL OR j.source_id = %(source_id)s)
ORDER BY j.source_version_id, j.id
