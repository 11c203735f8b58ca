SELECT v.sha256, v.size, v.content_type, m.markdown
FROM source_versions v LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256 WHERE v.id = %(source_version_id)s
