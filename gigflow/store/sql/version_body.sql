SELECT b.body, v.content_type, m.markdown, v.preparation
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256 WHERE v.id = %(id)s
