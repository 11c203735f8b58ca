-- The URL's newest version with what decides whether a fetch changed it: its Markdown and its jobs' digest.
SELECT id, sha256, markdown, jobs_digest FROM source_versions
WHERE source_id = %(source_id)s AND url = %(url)s
ORDER BY fetched_at DESC, id DESC LIMIT 1
