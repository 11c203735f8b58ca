-- A body already stored for this source and URL (same sha256) stores no new version; only its prepared Markdown
-- is refreshed when preparation changed (a new noise filter); an item without Markdown (a replayed 304) never
-- erases it. The caller reads the id of an existing version.
INSERT INTO source_versions (source_id, url, http_status, content_type, etag, last_modified, sha256, size, body,
                             markdown, preparation)
VALUES (%(source_id)s, %(url)s, %(http_status)s, %(content_type)s, %(etag)s, %(last_modified)s, %(sha256)s,
        %(size)s, %(body)s, %(markdown)s, %(preparation)s)
ON CONFLICT (source_id, url, sha256) DO UPDATE
    SET markdown = EXCLUDED.markdown, preparation = EXCLUDED.preparation
    WHERE EXCLUDED.markdown IS NOT NULL AND source_versions.markdown IS DISTINCT FROM EXCLUDED.markdown
RETURNING id, (xmax = 0) AS inserted
