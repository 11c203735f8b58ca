-- One page of sources in id order (keyset: the ids after %(after)s). Live job counts and the last crawl are
-- aggregated for that page's sources only, through the indexes jobs_listing_live and crawl_runs_source_finished.
WITH page AS (
    SELECT s.id, c.name AS company, s.status, s.status_reason, s.configuration_id, s.url, g.config_hash
    FROM sources s
    JOIN companies c ON c.id = s.company_id
    JOIN configurations g ON g.id = s.configuration_id
    WHERE %(after)s::text IS NULL OR s.id > %(after)s::text
    ORDER BY s.id
    LIMIT %(limit)s
), live_jobs AS (
    SELECT source_id, count(*) AS jobs FROM jobs
    WHERE gone_at IS NULL AND source_id IN (SELECT id FROM page)
    GROUP BY source_id
), last_runs AS (
    SELECT source_id, max(finished_at) AS last_crawl FROM crawl_runs
    WHERE source_id IN (SELECT id FROM page)
    GROUP BY source_id
)
SELECT page.*, coalesce(live_jobs.jobs, 0) AS jobs, last_runs.last_crawl
FROM page
LEFT JOIN live_jobs ON live_jobs.source_id = page.id
LEFT JOIN last_runs ON last_runs.source_id = page.id
ORDER BY page.id
