-- Claim this tick's share of due canonical jobs (oldest due first). The claim pushes next_check_at only
-- LINKCHECK_CLAIM_SECONDS on, so concurrent sweeps never check one job twice, and a sweep killed before it checked
-- a job leaves it due again soon (each check then sets the next one a whole interval on). Returns each job's best
-- live sighting's URLs.
WITH due AS (
    SELECT id FROM canonical_jobs
    WHERE merged_into IS NULL AND expired_at IS NULL AND next_check_at <= now()
    ORDER BY next_check_at
    LIMIT %(limit)s
    FOR UPDATE SKIP LOCKED
), claimed AS (
    UPDATE canonical_jobs c SET next_check_at = now() + make_interval(secs => %(claim_seconds)s)
    FROM due WHERE c.id = due.id
    RETURNING c.id
)
SELECT claimed.id, best.url, best.apply_url
FROM claimed
CROSS JOIN LATERAL (
    SELECT j.url, j.fields->>'apply_url' AS apply_url
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id
    WHERE l.canonical_id = claimed.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best
