-- A stored version's body, read again when a listing answers 304 Not Modified.
SELECT b.body, v.content_type, m.markdown, v.preparation
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
WHERE v.id = %(id)s AND v.source_id = %(source_id)s
