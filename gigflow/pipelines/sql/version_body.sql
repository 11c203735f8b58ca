SELECT body FROM source_versions WHERE id = %(id)s
