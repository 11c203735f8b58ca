-- select samples: the latest version of each URL of each active source of the configuration (chosen BEFORE the
-- page-type check, so an older HTML version never stands in for a newer non-HTML one), owned by that
-- configuration and its company, newest first. The caller keeps the usable HTML ones, distinct by sha256.
CREATE OR REPLACE FUNCTION gigflow_noise_select_samples(p_configuration_id bigint, p_limit integer DEFAULT 50)
RETURNS TABLE (source_id text, source_version_id bigint, url text, sha256 text, content_type text,
               fetched_at timestamptz, is_html boolean)
LANGUAGE sql STABLE AS $$
    WITH latest AS (
        SELECT DISTINCT ON (v.source_id, v.url)
               v.source_id, v.id, v.url, v.sha256, v.content_type, v.fetched_at
        FROM source_versions v
        JOIN sources s ON s.id = v.source_id
        JOIN configurations g ON g.id = s.configuration_id
        WHERE s.configuration_id = p_configuration_id
          AND s.status = 'active'
          AND s.company_id = g.company_id
        ORDER BY v.source_id, v.url, v.fetched_at DESC, v.id DESC
    )
    SELECT l.source_id, l.id, l.url, l.sha256, l.content_type, l.fetched_at,
           coalesce(l.content_type ILIKE 'text/html%' OR l.content_type ILIKE 'application/xhtml%', false)
    FROM latest l
    ORDER BY l.fetched_at DESC, l.id DESC
    LIMIT p_limit
$$;
