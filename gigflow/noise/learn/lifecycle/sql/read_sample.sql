SELECT v.id, v.source_id, v.url, v.sha256, v.body, v.content_type FROM source_versions v WHERE v.id = %(id)s
