-- Markdown no version references any more.
DELETE FROM markdowns m WHERE NOT EXISTS (SELECT 1 FROM source_versions v WHERE v.markdown_sha256 = m.sha256)
RETURNING m.sha256
