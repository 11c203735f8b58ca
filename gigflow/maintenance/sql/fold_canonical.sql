-- A canonical job found to be the same vacancy as another: its sightings move there; merged_into remembers it.
WITH moved AS (
    UPDATE canonical_links SET canonical_id = %(into)s,
        evidence = evidence || jsonb_build_array(jsonb_build_object('kind', 'folded', 'from_canonical', %(from)s::bigint))
    WHERE canonical_id = %(from)s
    RETURNING job_id
)
UPDATE canonical_jobs SET merged_into = %(into)s, published_at = NULL WHERE id = %(from)s
