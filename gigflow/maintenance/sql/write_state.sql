UPDATE canonical_jobs SET expired_at = %(expired_at)s, stale_at = %(stale_at)s, quality_score = %(quality_score)s,
    quality_parts = %(quality_parts)s, published_at = %(published_at)s
WHERE id = %(id)s
