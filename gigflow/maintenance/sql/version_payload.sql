SELECT b.body, v.content_type FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256 WHERE v.id = %(id)s
