-- The source page's jobs: live ones first, then gone ones, by title.
SELECT j.id, j.title, j.url, j.confidence, j.parser_key, j.first_seen, j.last_seen, j.gone_at
FROM jobs j
WHERE j.source_id = %(id)s
ORDER BY j.gone_at IS NOT NULL, j.title, j.id
LIMIT %(limit)s
