-- One stored version with what preparing it again needs: bytes, type, current Markdown, when it was fetched.
SELECT v.id, v.source_id, v.url, v.content_type, v.fetched_at, b.body, m.markdown
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
WHERE v.id = %(id)s
