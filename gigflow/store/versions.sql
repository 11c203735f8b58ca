-- source_versions, bodies and markdowns (gigflow.store.versions): a version per change of a URL's content; bodies and
-- Markdown stored once per sha256.

-- name: latest_validators
-- The newest stored version of this URL for this source, with the validators its server sent and the noise
-- filter its Markdown was prepared with.
SELECT id, etag, last_modified, preparation ->> 'noise_filter' AS noise_filter FROM source_versions
WHERE source_id = %(source_id)s AND url = %(url)s
ORDER BY fetched_at DESC, id DESC
LIMIT 1

-- name: stored_body
-- A stored version's body, read again when a listing answers 304 Not Modified.
SELECT b.body, v.content_type, m.markdown, v.preparation
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
WHERE v.id = %(id)s AND v.source_id = %(source_id)s

-- name: version_body
SELECT b.body, v.content_type, m.markdown, v.preparation
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256 WHERE v.id = %(id)s

-- name: latest_version
-- The latest stored version of one URL of a source: read again when a page is known unchanged (sitemap lastmod).
SELECT v.id, b.body, v.content_type, m.markdown, v.preparation
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
WHERE v.source_id = %(source_id)s AND v.url = %(url)s
ORDER BY v.fetched_at DESC, v.id DESC LIMIT 1

-- name: latest_fetch_times
-- When each URL of a source was last fetched (a version refreshed by an unchanged fetch counts): the sitemap spider
-- skips pages whose lastmod is older.
SELECT url, max(last_fetched_at) AS fetched_at FROM source_versions WHERE source_id = %(source_id)s GROUP BY url

-- name: stored_messages
-- The e-mails already stored for a source: the mailbox spider stores each Message-ID and each body once.
SELECT url, sha256 FROM source_versions WHERE source_id = %(source_id)s AND content_type = %(content_type)s

-- name: current_version
-- The URL's newest version with what decides whether a fetch changed it: its Markdown's and its jobs' digests.
SELECT id, sha256, markdown_sha256, jobs_digest FROM source_versions
WHERE source_id = %(source_id)s AND url = %(url)s
ORDER BY fetched_at DESC, id DESC LIMIT 1

-- name: refresh_version
-- A fetch whose prepared content and jobs are the version's own: the version stands for it, fetched now, with the
-- validators of this latest fetch (so the next conditional GET sends them; a fetch without any keeps the old).
UPDATE source_versions
SET last_fetched_at = now(), etag = coalesce(%(etag)s, etag), last_modified = coalesce(%(last_modified)s, last_modified)
WHERE id = %(id)s

-- name: insert_body
-- A raw body is stored once, whatever source or URL fetched it.
INSERT INTO bodies (sha256, size, body) VALUES (%(sha256)s, %(size)s, %(body)s)
ON CONFLICT (sha256) DO NOTHING

-- name: insert_markdown
-- Prepared Markdown is stored once, whatever version (of whatever source) it was prepared for.
INSERT INTO markdowns (sha256, markdown) VALUES (%(markdown_sha256)s, %(markdown)s)
ON CONFLICT (sha256) DO NOTHING

-- name: insert_version
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

-- name: version_summary
SELECT v.sha256, v.size, v.content_type, m.markdown
FROM source_versions v LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256 WHERE v.id = %(source_version_id)s

-- name: latest_versions_with_parsers
-- Latest stored version of each URL of the source(s), with the parser versions of the jobs it produced.
SELECT DISTINCT ON (v.source_id, v.url) v.id, v.source_id, v.url, v.content_type, v.fetched_at,
       (SELECT array_agg(DISTINCT j.parser_version) FROM jobs j WHERE j.source_version_id = v.id) AS parser_versions
FROM source_versions v
WHERE (%(source_id)s::text IS NULL OR v.source_id = %(source_id)s)
ORDER BY v.source_id, v.url, v.fetched_at DESC, v.id DESC

-- name: version_for_reprepare
-- One stored version with what preparing it again needs: bytes, type, current Markdown, when it was fetched, the
-- bytes' sha256 (its Markdown file's name).
SELECT v.id, v.source_id, v.url, v.content_type, v.fetched_at, b.body, m.markdown, v.sha256
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
WHERE v.id = %(id)s

-- name: reprepare_version
-- A stored version prepared again from its own bytes (a new noise filter): its Markdown, preparation report and
-- jobs digest change, its bytes and fetch times do not.
UPDATE source_versions
SET markdown_sha256 = %(markdown_sha256)s, preparation = %(preparation)s, jobs_digest = %(jobs_digest)s
WHERE id = %(id)s
RETURNING id

-- name: version_files
-- Every (source, body) a Markdown file may exist for.
SELECT DISTINCT source_id, sha256 FROM source_versions

-- name: version_payload
-- A stored version's bytes and type (a payload of many jobs: their per-job documents are read from it).
SELECT b.body, v.content_type FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256 WHERE v.id = %(id)s

-- name: all_versions
-- Every stored version in order (a scratch database: `sources try`).
SELECT id, url, http_status, content_type FROM source_versions ORDER BY id
