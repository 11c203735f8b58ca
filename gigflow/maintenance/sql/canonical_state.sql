-- One page of live canonical jobs (keyset after %(after)s) with what freshness and quality read: the best
-- sighting's fields, and over all sightings the latest sighting, sources, best confidence and validThrough.
SELECT c.id, c.link_status, c.expired_at, c.stale_at, c.published_at, c.quality_score,
       best.title, best.url, best.fields, agg.last_seen, agg.sources, agg.confidence, agg.live,
       agg.valid_through, extract(epoch FROM now() - agg.last_seen) / 86400.0 AS age_days, now() AS now
FROM canonical_jobs c
CROSS JOIN LATERAL (
    SELECT j.title, j.url, j.fields
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best
CROSS JOIN LATERAL (
    SELECT max(j.last_seen) AS last_seen, count(DISTINCT j.source_id) AS sources, max(j.confidence) AS confidence,
           bool_or(j.gone_at IS NULL) AS live,
           array_remove(array_agg(j.fields->>'valid_through'), NULL) AS valid_through
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = c.id
) agg
WHERE c.id > %(after)s AND c.merged_into IS NULL
ORDER BY c.id
LIMIT %(limit)s
