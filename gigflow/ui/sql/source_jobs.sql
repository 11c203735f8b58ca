-- The source page's jobs: live ones first, then gone ones, by title; location and URL tell same-titled jobs apart.
SELECT j.id, j.title, j.url, j.fields->>'location' AS location, j.confidence, j.parser_key, j.first_seen,
       j.last_seen, j.gone_at
FROM jobs j
WHERE j.source_id = %(id)s
ORDER BY j.gone_at IS NOT NULL, j.title, j.fields->>'location', j.id
LIMIT %(limit)s
