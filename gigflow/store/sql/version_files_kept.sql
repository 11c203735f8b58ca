-- Which of these (source, body) pairs a version of the source still stands for (their Markdown files are kept):
-- one query for a whole batch of pruned files.
SELECT f.source_id, f.sha256
FROM unnest(%(source_ids)s::text[], %(sha256s)s::text[]) AS f(source_id, sha256)
WHERE EXISTS (SELECT 1 FROM source_versions v WHERE v.sha256 = f.sha256 AND v.source_id = f.source_id)
