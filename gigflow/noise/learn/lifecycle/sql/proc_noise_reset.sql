-- reset: drop the filter and advance the token even when no filter exists, so an in-flight review cannot save.
CREATE OR REPLACE FUNCTION gigflow_noise_reset(p_configuration_id bigint)
RETURNS TABLE (had_filter boolean, token bigint)
LANGUAGE sql AS $$
    UPDATE configurations g
    SET config = g.config - 'noiseFilter', token = g.token + 1, updated_at = now()
    FROM (SELECT id, config ? 'noiseFilter' AS had FROM configurations WHERE id = p_configuration_id FOR UPDATE) old
    WHERE g.id = old.id
    RETURNING old.had, g.token
$$;
