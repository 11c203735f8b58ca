-- What the list/search read model is built from, for the given canonical jobs: the best sighting (as the export
-- chooses it) and every source that saw the job. Folded (merged_into) and unknown ids come back with gone = true.
SELECT ids.id AS canonical_id, (c.id IS NULL OR c.merged_into IS NOT NULL OR best.title IS NULL) AS gone,
       best.title, best.fields, srcs.source_ids
FROM unnest(%(ids)s::bigint[]) AS ids(id)
LEFT JOIN canonical_jobs c ON c.id = ids.id
LEFT JOIN LATERAL (
    SELECT j.title, j.fields
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best ON true
LEFT JOIN LATERAL (
    SELECT array_agg(DISTINCT j.source_id ORDER BY j.source_id) AS source_ids
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
) srcs ON true
