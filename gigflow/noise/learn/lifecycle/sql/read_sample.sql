SELECT v.id, v.source_id, v.url, v.sha256, b.body, v.content_type
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256 WHERE v.id = %(id)s
