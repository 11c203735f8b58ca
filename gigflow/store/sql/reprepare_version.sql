-- A stored version prepared again from its own bytes (a new noise filter): its Markdown, preparation report and
-- jobs digest change, its bytes and fetch times do not.
UPDATE source_versions
SET markdown_sha256 = %(markdown_sha256)s, preparation = %(preparation)s, jobs_digest = %(jobs_digest)s
WHERE id = %(id)s
RETURNING id
