-- A crawl that starts holds its source's claim (also a crawl started by hand), for SCHEDULE_CLAIM_SECONDS.
INSERT INTO crawl_claims (source_id, expires_at)
SELECT id, now() + make_interval(secs => %(claim_seconds)s) FROM sources WHERE id = %(source_id)s
ON CONFLICT (source_id) DO UPDATE SET expires_at = EXCLUDED.expires_at
