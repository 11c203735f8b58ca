-- The noise review page's header: the configuration, its company and its sources.
SELECT g.id, g.canonical_url, g.config_hash, g.token, c.name AS company,
       coalesce((SELECT array_agg(s.id ORDER BY s.id) FROM sources s WHERE s.configuration_id = g.id), '{}') AS sources
FROM configurations g
JOIN companies c ON c.id = g.company_id
WHERE g.id = %(id)s
