-- Direct save into config.noiseFilter; the storage and queue issue replaces this with the race-safe lifecycle.
UPDATE configurations
SET config = jsonb_set(config, '{noiseFilter}', %(noise_filter)s::jsonb, true),
    token = token + 1,
    updated_at = now()
WHERE id = %(configuration_id)s
RETURNING token
