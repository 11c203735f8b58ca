-- A body already stored for this source and URL (same sha256) stores no new version; it is marked fetched now and
-- only its prepared Markdown is refreshed when preparation changed (a new noise filter); an item without Markdown
-- (a replayed 304) never erases it nor the jobs digest. `inserted` tells a new version from an existing one.
WITH previous AS (SELECT markdown_sha256 FROM source_versions
                  WHERE source_id = %(source_id)s AND url = %(url)s AND sha256 = %(sha256)s)
INSERT INTO source_versions (source_id, url, http_status, content_type, etag, last_modified, sha256, size,
                             markdown_sha256, preparation, jobs_digest)
VALUES (%(source_id)s, %(url)s, %(http_status)s, %(content_type)s, %(etag)s, %(last_modified)s, %(sha256)s,
        %(size)s, %(markdown_sha256)s, %(preparation)s, %(jobs_digest)s)
ON CONFLICT (source_id, url, sha256) DO UPDATE
    SET markdown_sha256 = coalesce(EXCLUDED.markdown_sha256, source_versions.markdown_sha256),
        preparation = CASE WHEN EXCLUDED.markdown_sha256 IS NULL THEN source_versions.preparation
                           ELSE EXCLUDED.preparation END,
        jobs_digest = CASE WHEN EXCLUDED.markdown_sha256 IS NULL THEN source_versions.jobs_digest
                           ELSE EXCLUDED.jobs_digest END,
        etag = coalesce(EXCLUDED.etag, source_versions.etag),
        last_modified = coalesce(EXCLUDED.last_modified, source_versions.last_modified), last_fetched_at = now()
RETURNING id, (xmax = 0) AS inserted,
          (xmax <> 0 AND %(markdown_sha256)s::text IS NOT NULL
           AND %(markdown_sha256)s::text IS DISTINCT FROM (SELECT markdown_sha256 FROM previous)) AS reprepared
