-- A body already stored for this source and URL (same sha256) stores nothing; the caller then reads its id.
INSERT INTO source_versions (source_id, url, http_status, content_type, etag, last_modified, sha256, size, body,
                             markdown, preparation)
VALUES (%(source_id)s, %(url)s, %(http_status)s, %(content_type)s, %(etag)s, %(last_modified)s, %(sha256)s,
        %(size)s, %(body)s, %(markdown)s, %(preparation)s)
ON CONFLICT (source_id, url, sha256) DO NOTHING
RETURNING id
