-- A repaired configuration: new strategies and hash; the learned noise filter goes, it was learned for others.
UPDATE configurations SET strategies = %(strategies)s, config_hash = %(config_hash)s,
       config = config - 'noiseFilter', token = token + 1, updated_at = now()
WHERE id = %(configuration_id)s AND token = %(token)s
RETURNING id, token
