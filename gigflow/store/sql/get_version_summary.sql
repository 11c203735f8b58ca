SELECT sha256, size, content_type, markdown FROM source_versions WHERE id = %(source_version_id)s
