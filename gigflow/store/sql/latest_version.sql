-- The latest stored version of one URL of a source: read again when a page is known unchanged (sitemap lastmod).
SELECT id, body, content_type, markdown, preparation FROM source_versions
WHERE source_id = %(source_id)s AND url = %(url)s
ORDER BY fetched_at DESC, id DESC LIMIT 1
