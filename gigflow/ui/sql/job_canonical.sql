-- The canonical job this per-source job is a sighting of (none before the resolver ran), and its events.
SELECT l.canonical_id, l.score, l.evidence,
       coalesce((SELECT jsonb_agg(jsonb_build_object('at', e.at, 'kind', e.kind, 'detail', e.detail) ORDER BY e.id)
                 FROM (SELECT * FROM canonical_events e WHERE e.canonical_id = l.canonical_id
                       ORDER BY e.id DESC LIMIT %(limit)s) e), '[]'::jsonb) AS events
FROM canonical_links l
WHERE l.job_id = %(id)s
