SELECT g.id, g.company_id, g.config_hash, g.config, g.token, g.strategies
FROM configurations g WHERE g.id = %(configuration_id)s
