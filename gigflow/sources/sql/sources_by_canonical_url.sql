-- Sources already stored under these canonical URLs, with their company and configuration hash.
SELECT s.id, c.name AS company, g.canonical_url, g.config_hash
FROM configurations g
JOIN sources s ON s.configuration_id = g.id
JOIN companies c ON c.id = s.company_id
WHERE g.canonical_url = ANY(%(urls)s)
ORDER BY s.id
