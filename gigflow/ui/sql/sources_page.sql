-- The sources table: one keyset page (ids after %(after)s) matching the status and text filters, with each
-- source's live jobs, last finished run and next crawl, aggregated for that page only.
WITH page AS (
    SELECT s.id, c.name AS company, s.status, s.status_reason, s.url, s.next_crawl_at, s.configuration_id
    FROM sources s
    JOIN companies c ON c.id = s.company_id
    WHERE (%(after)s::text IS NULL OR s.id > %(after)s::text)
      AND (%(status)s::text IS NULL OR s.status = %(status)s::text)
      AND (%(pattern)s::text IS NULL OR s.id ILIKE %(pattern)s::text OR c.name ILIKE %(pattern)s::text
           OR s.url ILIKE %(pattern)s::text)
    ORDER BY s.id
    LIMIT %(limit)s
)
SELECT page.*,
       (SELECT count(*) FROM jobs j WHERE j.source_id = page.id AND j.gone_at IS NULL) AS jobs,
       last_run.outcome AS last_outcome, last_run.spider AS last_spider, last_run.finished_at AS last_finished_at
FROM page
LEFT JOIN LATERAL (
    SELECT r.outcome, r.spider, r.finished_at FROM crawl_runs r
    WHERE r.source_id = page.id AND r.finished_at IS NOT NULL
    ORDER BY r.finished_at DESC LIMIT 1
) last_run ON true
ORDER BY page.id
