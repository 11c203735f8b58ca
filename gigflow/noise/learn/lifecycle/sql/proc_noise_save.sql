-- save: lock the configuration row and the sample sources, then refuse (saving nothing) when the token moved
-- (a reset or a newer completion), the configuration hash changed, a sample belongs to another configuration
-- or company, or a sample is no longer its URL's latest version. Otherwise store the filter, advance the token.
CREATE OR REPLACE FUNCTION gigflow_noise_save(p_configuration_id bigint, p_expected_token bigint,
                                              p_filter jsonb, p_samples jsonb)
RETURNS TABLE (saved boolean, conflict text, token bigint)
LANGUAGE plpgsql AS $$
DECLARE
    cfg record;
    bad text;
BEGIN
    SELECT g.id, g.company_id, g.token, g.config_hash INTO cfg
    FROM configurations g WHERE g.id = p_configuration_id FOR UPDATE;
    IF NOT FOUND THEN
        RETURN QUERY SELECT false, 'unknown configuration', NULL::bigint; RETURN;
    END IF;
    PERFORM 1 FROM sources s
    WHERE s.id IN (SELECT x.source_id FROM jsonb_to_recordset(p_samples) AS x(source_id text))
    ORDER BY s.id FOR UPDATE;

    IF cfg.token <> p_expected_token THEN
        RETURN QUERY SELECT false, format('token moved from %s to %s (reset or newer save)', p_expected_token,
                                          cfg.token), cfg.token;
        RETURN;
    END IF;
    IF cfg.config_hash <> p_filter ->> 'config_hash' THEN
        RETURN QUERY SELECT false, 'configuration hash changed during the review', cfg.token; RETURN;
    END IF;
    SELECT format('sample %s (source %s) belongs to another configuration or company', x.source_version_id,
                  x.source_id) INTO bad
    FROM jsonb_to_recordset(p_samples) AS x(source_id text, source_version_id bigint, sha256 text)
    LEFT JOIN source_versions v ON v.id = x.source_version_id AND v.source_id = x.source_id AND v.sha256 = x.sha256
    LEFT JOIN sources s ON s.id = v.source_id
    WHERE v.id IS NULL OR s.configuration_id <> cfg.id OR s.company_id <> cfg.company_id
    LIMIT 1;
    IF bad IS NOT NULL THEN
        RETURN QUERY SELECT false, bad, cfg.token; RETURN;
    END IF;
    SELECT format('sample %s is no longer the latest version of %s', x.source_version_id, v.url) INTO bad
    FROM jsonb_to_recordset(p_samples) AS x(source_id text, source_version_id bigint, sha256 text)
    JOIN source_versions v ON v.id = x.source_version_id
    WHERE v.id <> (SELECT w.id FROM source_versions w WHERE w.source_id = v.source_id AND w.url = v.url
                   ORDER BY w.fetched_at DESC, w.id DESC LIMIT 1)
    LIMIT 1;
    IF bad IS NOT NULL THEN
        RETURN QUERY SELECT false, bad, cfg.token; RETURN;
    END IF;

    UPDATE configurations g
    SET config = jsonb_set(g.config, '{noiseFilter}', p_filter), token = g.token + 1, updated_at = now()
    WHERE g.id = cfg.id;
    RETURN QUERY SELECT true, NULL::text, cfg.token + 1;
END
$$;
