-- The source page's header: the source, its company and its configuration.
SELECT s.id, s.status, s.status_reason, s.url, s.parser_key, s.next_crawl_at, s.unchanged_runs, s.created_at,
       c.name AS company, g.id AS configuration_id, g.canonical_url, g.strategies, g.config_hash, g.token,
       g.config -> 'noiseFilter' AS noise_filter
FROM sources s
JOIN companies c ON c.id = s.company_id
JOIN configurations g ON g.id = s.configuration_id
WHERE s.id = %(id)s
