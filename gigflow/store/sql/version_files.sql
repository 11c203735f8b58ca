-- Every (source, body) a Markdown file may exist for.
SELECT DISTINCT source_id, sha256 FROM source_versions
