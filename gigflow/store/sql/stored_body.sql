-- A stored version's body, read again when a listing answers 304 Not Modified.
SELECT body, content_type, markdown, preparation FROM source_versions WHERE id = %(id)s AND source_id = %(source_id)s
