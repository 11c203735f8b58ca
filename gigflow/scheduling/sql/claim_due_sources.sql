-- Claim up to %(limit)s due active, trial and drifting sources that no crawl holds. SKIP LOCKED passes over sources another
-- schedule-due is claiming right now; ON CONFLICT ... WHERE covers a claim committed after this statement's
-- snapshot was taken (that row comes back from neither branch), so no source is ever claimed twice.
WITH due AS (
    SELECT s.id
    FROM sources s
    WHERE s.status IN ('active', 'trial', 'drifting') AND (s.next_crawl_at IS NULL OR s.next_crawl_at <= now())
      AND NOT EXISTS (SELECT 1 FROM crawl_claims c WHERE c.source_id = s.id AND c.expires_at > now()
                      AND gigflow_holder_alive(c.holder_lock))
    ORDER BY s.next_crawl_at NULLS FIRST, s.id
    LIMIT %(limit)s
    FOR UPDATE OF s SKIP LOCKED
), claimed AS (
    INSERT INTO crawl_claims (source_id, expires_at)
    SELECT id, now() + make_interval(secs => %(claim_seconds)s) FROM due
    ON CONFLICT (source_id) DO UPDATE
        SET jobs = '[]'::jsonb, claimed_at = now(), expires_at = EXCLUDED.expires_at, holder_lock = NULL
        WHERE crawl_claims.expires_at <= now() OR NOT gigflow_holder_alive(crawl_claims.holder_lock)
    RETURNING source_id
)
SELECT s.id, g.strategies, g.canonical_url
FROM claimed
JOIN sources s ON s.id = claimed.source_id
JOIN configurations g ON g.id = s.configuration_id
ORDER BY s.next_crawl_at NULLS FIRST, s.id
