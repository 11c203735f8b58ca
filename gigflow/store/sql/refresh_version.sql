-- A fetch whose prepared content and jobs are the version's own: the version stands for it, fetched now, with the
-- validators of this latest fetch (so the next conditional GET sends them; a fetch without any keeps the old).
UPDATE source_versions
SET last_fetched_at = now(), etag = coalesce(%(etag)s, etag), last_modified = coalesce(%(last_modified)s, last_modified)
WHERE id = %(id)s
