SELECT s.id, c.name AS company, s.status, s.url, g.config_hash,
       (SELECT count(*) FROM jobs j WHERE j.source_id = s.id AND j.gone_at IS NULL) AS jobs,
       (SELECT max(r.finished_at) FROM crawl_runs r WHERE r.source_id = s.id) AS last_crawl
FROM sources s
JOIN companies c ON c.id = s.company_id
JOIN configurations g ON g.id = s.configuration_id
ORDER BY s.id
