-- The sources a batch process has yet to start keep their claims (renewed while they wait), so no other
-- schedule-due pass hands them out meanwhile.
INSERT INTO crawl_claims (source_id, expires_at)
SELECT id, now() + make_interval(secs => %(claim_seconds)s) FROM sources WHERE id = ANY(%(source_ids)s)
ON CONFLICT (source_id) DO UPDATE SET expires_at = GREATEST(crawl_claims.expires_at, EXCLUDED.expires_at)
