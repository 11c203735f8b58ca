-- The URL's newest version with what decides whether a fetch changed it: its Markdown's and its jobs' digests.
SELECT id, sha256, markdown_sha256, jobs_digest FROM source_versions
WHERE source_id = %(source_id)s AND url = %(url)s
ORDER BY fetched_at DESC, id DESC LIMIT 1
