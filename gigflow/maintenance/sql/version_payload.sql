SELECT body, content_type FROM source_versions WHERE id = %(id)s
