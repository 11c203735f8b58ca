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
