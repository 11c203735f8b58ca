SELECT body, content_type, markdown, preparation FROM source_versions WHERE id = %(id)s
