-- The latest stored HTML versions of a configuration's sources, one per distinct body, newest first.
SELECT id, source_id, url, sha256, content_type, body, fetched_at
FROM (
    SELECT DISTINCT ON (v.sha256) v.id, v.source_id, v.url, v.sha256, v.content_type, v.body, v.fetched_at
    FROM source_versions v
    JOIN sources s ON s.id = v.source_id
    WHERE s.configuration_id = %(configuration_id)s
      AND v.http_status = 200
      AND (v.content_type IS NULL OR v.content_type ILIKE '%%html%%')
    ORDER BY v.sha256, v.fetched_at DESC, v.id DESC
) distinct_bodies
ORDER BY fetched_at DESC, id DESC
LIMIT %(limit)s
