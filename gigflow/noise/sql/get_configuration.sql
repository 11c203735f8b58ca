SELECT id, config_hash, config, token FROM configurations WHERE id = %(configuration_id)s
