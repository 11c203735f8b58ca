-- The latest stored version of one URL of a source: read again when a page is known unchanged (sitemap lastmod).
SELECT v.id, b.body, v.content_type, m.markdown, v.preparation
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
WHERE v.source_id = %(source_id)s AND v.url = %(url)s
ORDER BY v.fetched_at DESC, v.id DESC LIMIT 1
