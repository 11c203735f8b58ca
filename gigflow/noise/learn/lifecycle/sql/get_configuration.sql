SELECT g.id, g.company_id, c.name AS company, g.config_hash, g.config, g.token, g.strategies
FROM configurations g JOIN companies c ON c.id = g.company_id WHERE g.id = %(configuration_id)s
