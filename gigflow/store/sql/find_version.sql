SELECT id FROM source_versions WHERE source_id = %(source_id)s AND url = %(url)s AND sha256 = %(sha256)s
