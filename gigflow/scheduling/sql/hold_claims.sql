-- These sources are claimed for SCHEDULE_CLAIM_SECONDS from now (never shortened) by this process (its liveness
-- key): a crawl that starts holds its source's claim (also a crawl started by hand), and a batch process renews the
-- claims of the sources still waiting in it, so no other schedule-due pass hands them out meanwhile.
INSERT INTO crawl_claims (source_id, expires_at, holder_lock)
SELECT id, now() + make_interval(secs => %(claim_seconds)s), %(holder_lock)s FROM sources WHERE id = ANY(%(source_ids)s)
ON CONFLICT (source_id) DO UPDATE SET expires_at = GREATEST(crawl_claims.expires_at, EXCLUDED.expires_at),
                                      holder_lock = EXCLUDED.holder_lock
