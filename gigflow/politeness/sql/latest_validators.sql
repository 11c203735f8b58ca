-- The newest stored version of this URL for this source, with the validators its server sent.
SELECT id, etag, last_modified FROM source_versions
WHERE source_id = %(source_id)s AND url = %(url)s
ORDER BY fetched_at DESC, id DESC
LIMIT 1
