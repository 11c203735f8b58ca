-- Latest stored version of each URL of the source(s), with the parser versions of the jobs it produced.
SELECT DISTINCT ON (v.source_id, v.url) v.id, v.source_id, v.url, v.content_type, v.fetched_at,
       (SELECT array_agg(DISTINCT j.parser_version) FROM jobs j WHERE j.source_version_id = v.id) AS parser_versions
FROM source_versions v
WHERE (%(source_id)s::text IS NULL OR v.source_id = %(source_id)s)
ORDER BY v.source_id, v.url, v.fetched_at DESC, v.id DESC
