-- Noise review lifecycle (gigflow.noise.learn.lifecycle.procedures): a configuration's state, its samples, the
-- race-safe save and reset, the reconciliation scan and the automatic cycle's bookkeeping.
-- The stored procedures these call stay whole-file scripts in sql/proc_*.sql: gigflow.db.migrate runs each file
-- as one statement on every upgrade (re-applied when its text changes), keyed by its file name.

-- name: get_configuration
-- A configuration with its company, learned config, token and strategies.
SELECT g.id AS configuration_id, g.company_id, c.name AS company, g.config_hash, g.config, g.token,
       g.strategies
FROM configurations g JOIN companies c ON c.id = g.company_id WHERE g.id = %(configuration_id)s

-- name: select_samples
-- The configuration's sample candidates (gigflow_noise_select_samples, sql/proc_noise_select_samples.sql).
SELECT * FROM gigflow_noise_select_samples(%(configuration_id)s, %(limit)s)

-- name: select_source_samples
-- The latest version of each URL of one source, whatever the source's status (a preview of its noise filter),
-- newest first, with whether it is HTML.
WITH latest AS (
    SELECT DISTINCT ON (v.url) v.source_id, v.id, v.url, v.sha256, v.content_type, v.fetched_at
    FROM source_versions v
    WHERE v.source_id = %(source_id)s
    ORDER BY v.url, v.fetched_at DESC, v.id DESC
)
SELECT source_id, id AS source_version_id, url, sha256, content_type, fetched_at,
       coalesce(content_type ILIKE 'text/html%%' OR content_type ILIKE 'application/xhtml%%', false) AS is_html
FROM latest
ORDER BY fetched_at DESC, id DESC
LIMIT %(limit)s

-- name: read_sample
-- One stored version's body and content type (a sample's bytes, checked against its sha256 by the caller).
SELECT v.id, v.source_id, v.url, v.sha256, b.body, v.content_type
FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256 WHERE v.id = %(id)s

-- name: reconcile_page
-- One page of configurations with an active source (gigflow_noise_reconcile_page).
SELECT * FROM gigflow_noise_reconcile_page(%(after_id)s, %(limit)s)

-- name: save
-- The race-safe save of a learned filter (gigflow_noise_save, sql/proc_noise_save.sql).
SELECT * FROM gigflow_noise_save(%(configuration_id)s, %(expected_token)s, %(filter)s, %(samples)s)

-- name: reset
-- Drop the filter and advance the token (gigflow_noise_reset, sql/proc_noise_reset.sql).
SELECT * FROM gigflow_noise_reset(%(configuration_id)s)

-- name: seconds_until_next_cycle
-- Seconds until this configuration may start another automatic review cycle (<= 0: now).
SELECT coalesce(extract(epoch FROM (config -> 'noiseReview' ->> 'lastAutomaticAt')::timestamptz
                               + make_interval(secs => %(cycle_seconds)s) - now()), 0)::float8 AS wait
FROM configurations WHERE id = %(configuration_id)s

-- name: mark_automatic_cycle
-- Bookkeeping for the hourly limit lives beside the filter; it never moves the token.
UPDATE configurations SET config = jsonb_set(config, '{noiseReview}',
    coalesce(config -> 'noiseReview', '{}'::jsonb) || jsonb_build_object('lastAutomaticAt', now()))
WHERE id = %(configuration_id)s
