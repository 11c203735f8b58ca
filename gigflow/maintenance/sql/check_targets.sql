-- The given canonical jobs with their best live sighting's job URL and apply URL.
SELECT c.id, best.url, best.apply_url
FROM canonical_jobs c
CROSS JOIN LATERAL (
    SELECT j.url, j.fields->>'apply_url' AS apply_url
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best
WHERE c.id = ANY(%(ids)s::bigint[])
ORDER BY c.id
