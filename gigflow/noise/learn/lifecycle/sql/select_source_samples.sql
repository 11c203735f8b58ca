-- The latest version of each URL of one source, whatever the source's status (a preview of its noise filter),
-- newest first, with whether it is HTML.
WITH latest AS (
    SELECT DISTINCT ON (v.url) v.source_id, v.id, v.url, v.sha256, v.content_type, v.fetched_at
    FROM source_versions v
    WHERE v.source_id = %(source_id)s
    ORDER BY v.url, v.fetched_at DESC, v.id DESC
)
SELECT source_id, id AS source_version_id, url, sha256, content_type, fetched_at,
       coalesce(content_type ILIKE 'text/html%%' OR content_type ILIKE 'application/xhtml%%', false) AS is_html
FROM latest
ORDER BY fetched_at DESC, id DESC
LIMIT %(limit)s
