-- A changed configuration hash drops the learned noise filter: it was learned for other strategies.
INSERT INTO configurations (company_id, canonical_url, strategies, config_hash)
VALUES (%(company_id)s, %(canonical_url)s, %(strategies)s, %(config_hash)s)
ON CONFLICT (canonical_url) DO UPDATE SET
    company_id = EXCLUDED.company_id,
    strategies = EXCLUDED.strategies,
    config_hash = EXCLUDED.config_hash,
    config = CASE WHEN configurations.config_hash = EXCLUDED.config_hash
                  THEN configurations.config ELSE configurations.config - 'noiseFilter' END,
    token = CASE WHEN configurations.config_hash = EXCLUDED.config_hash
                 THEN configurations.token ELSE configurations.token + 1 END,
    updated_at = CASE WHEN configurations.config_hash = EXCLUDED.config_hash
                      THEN configurations.updated_at ELSE now() END
RETURNING id
