SELECT s.id, s.url, s.status, s.status_reason, s.parser_key, s.configuration_id, s.next_crawl_at,
       c.name AS company, g.canonical_url, g.strategies, g.config_hash, g.config, g.token
FROM sources s
JOIN companies c ON c.id = s.company_id
JOIN configurations g ON g.id = s.configuration_id
WHERE s.id = %(id)s
