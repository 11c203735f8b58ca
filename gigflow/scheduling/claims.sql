-- Crawl claims (gigflow.scheduling.claims): which due sources a schedule-due pass handed out, and who holds them.

-- name: due_sources
-- Active, trial and drifting sources whose next crawl time has passed (never crawled first) and that no crawl holds;
-- what schedule-due --dry-run shows (it claims nothing).
SELECT s.id, s.next_crawl_at, g.strategies, g.canonical_url
FROM sources s
JOIN configurations g ON g.id = s.configuration_id
WHERE s.status IN ('active', 'trial', 'drifting') AND (s.next_crawl_at IS NULL OR s.next_crawl_at <= now())
  AND NOT EXISTS (SELECT 1 FROM crawl_claims c WHERE c.source_id = s.id AND c.expires_at > now()
                      AND gigflow_holder_alive(c.holder_lock))
ORDER BY s.next_crawl_at NULLS FIRST, s.id
LIMIT %(limit)s

-- name: claim_due_sources
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

-- name: hold_claims
-- These sources are claimed for SCHEDULE_CLAIM_SECONDS from now (never shortened) by this process (its liveness
-- key): a crawl that starts holds its source's claim (also a crawl started by hand), and a batch process renews the
-- claims of the sources still waiting in it, so no other schedule-due pass hands them out meanwhile.
INSERT INTO crawl_claims (source_id, expires_at, holder_lock)
SELECT id, now() + make_interval(secs => %(claim_seconds)s), %(holder_lock)s FROM sources WHERE id = ANY(%(source_ids)s)
ON CONFLICT (source_id) DO UPDATE SET expires_at = GREATEST(crawl_claims.expires_at, EXCLUDED.expires_at),
                                      holder_lock = EXCLUDED.holder_lock

-- name: record_claim_jobs
-- The jobs schedule-due handed to the nodes for a claimed source.
UPDATE crawl_claims SET jobs = %(jobs)s WHERE source_id = %(source_id)s

-- name: release_claim
-- The source is free to be scheduled again (its crawl closed, or no node took its jobs).
DELETE FROM crawl_claims WHERE source_id = %(source_id)s

-- name: release_dead_claims
-- Claims whose holding process is gone (its liveness key is free): the source is free to be scheduled again.
DELETE FROM crawl_claims WHERE holder_lock IS NOT NULL AND NOT gigflow_holder_alive(holder_lock)
RETURNING source_id

-- name: pass_lock
-- One schedule-due pass at a time (held by the session until it ends): the next pass polls the nodes after this
-- one's jobs are in their queues, so no slot is counted twice.
SELECT pg_advisory_lock(hashtextextended('gigflow.schedule-due', 0))
