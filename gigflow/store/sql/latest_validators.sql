-- The newest stored version of this URL for this source, with the validators its server sent and the noise
-- filter its Markdown was prepared with.
SELECT id, etag, last_modified, preparation ->> 'noise_filter' AS noise_filter FROM source_versions
WHERE source_id = %(source_id)s AND url = %(url)s
ORDER BY fetched_at DESC, id DESC
LIMIT 1
