-- reconcile page: keyset-paged scan of configurations with at least one active source. The cursor is the last
-- configuration id seen, so concurrent inserts never shift a page.
CREATE OR REPLACE FUNCTION gigflow_noise_reconcile_page(p_after_id bigint, p_limit integer)
RETURNS TABLE (configuration_id bigint, config_hash text, has_filter boolean)
LANGUAGE sql STABLE AS $$
    SELECT g.id, g.config_hash, g.config ? 'noiseFilter'
    FROM configurations g
    WHERE g.id > p_after_id
      AND EXISTS (SELECT 1 FROM sources s WHERE s.configuration_id = g.id AND s.status = 'active')
    ORDER BY g.id
    LIMIT p_limit
$$;
