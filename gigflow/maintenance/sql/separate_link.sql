-- Unmerge: the sighting moves to its own canonical job and never goes back to the old one.
WITH sep AS (
    INSERT INTO canonical_separations (job_id, canonical_id) VALUES (%(job_id)s, %(old)s) ON CONFLICT DO NOTHING
)
UPDATE canonical_links SET canonical_id = %(new)s, score = 1.0,
    evidence = jsonb_build_array(jsonb_build_object('kind', 'unmerged', 'from_canonical', %(old)s::bigint))
WHERE job_id = %(job_id)s
