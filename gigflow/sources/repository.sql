-- Sources (gigflow.sources.repository): companies, configurations, sources and their status events.

-- name: sources_by_canonical_url
-- Sources already stored under these canonical URLs, with their company and configuration hash.
SELECT s.id, c.name AS company, g.canonical_url, g.config_hash
FROM configurations g
JOIN sources s ON s.configuration_id = g.id
JOIN companies c ON c.id = s.company_id
WHERE g.canonical_url = ANY(%(urls)s)
ORDER BY s.id

-- name: upsert_company
-- A company by name, created when new; its id.
INSERT INTO companies (name) VALUES (%(company)s)
ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
RETURNING id

-- name: upsert_configuration
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

-- name: upsert_source
-- A source's configuration and identity. Its status is set only when the source is new: a re-import keeps the
-- status (and its history) unless the file names a status (the caller records that change as an event).
INSERT INTO sources (id, configuration_id, company_id, url, status, parser_key)
VALUES (%(id)s, %(configuration_id)s, %(company_id)s, %(url)s, %(status)s, %(parser_key)s)
ON CONFLICT (id) DO UPDATE SET
    configuration_id = EXCLUDED.configuration_id,
    company_id = EXCLUDED.company_id,
    url = EXCLUDED.url,
    parser_key = EXCLUDED.parser_key,
    updated_at = now()
-- xmax is 0 on a row this statement inserted (PostgreSQL's usual upsert idiom)
RETURNING status, (xmax = 0) AS inserted

-- name: insert_status_event
-- A status event without a change of the sources row (a new source's first status).
INSERT INTO source_status_events (source_id, from_status, to_status, reason, actor, evidence)
VALUES (%(id)s, %(from_status)s, %(status)s, %(reason)s, %(actor)s, %(evidence)s)

-- name: set_source_status
-- A status change and its event in one statement: the history is never missing a change.
WITH old AS (
    SELECT id, status FROM sources WHERE id = %(id)s FOR UPDATE
), changed AS (
    UPDATE sources s SET status = %(status)s, status_reason = %(reason)s, updated_at = now()
    FROM old WHERE s.id = old.id
    RETURNING s.id, old.status AS from_status
)
INSERT INTO source_status_events (source_id, from_status, to_status, reason, actor, evidence)
SELECT id, from_status, %(status)s, %(reason)s, %(actor)s, %(evidence)s FROM changed
RETURNING id

-- name: get_source
-- One source with its company and configuration (identity, strategies, learned config, token).
SELECT s.id, s.url, s.status, s.status_reason, s.parser_key, s.configuration_id, s.next_crawl_at,
       c.name AS company, g.canonical_url, g.strategies, g.config_hash, g.config, g.token
FROM sources s
JOIN companies c ON c.id = s.company_id
JOIN configurations g ON g.id = s.configuration_id
WHERE s.id = %(id)s

-- name: source_exists
SELECT EXISTS (SELECT 1 FROM sources WHERE id = %(id)s)

-- name: list_sources
-- One page of sources in id order (keyset: the ids after %(after)s). Live job counts and the last crawl are
-- aggregated for that page's sources only, through the indexes jobs_listing_live and crawl_runs_source_finished.
WITH page AS (
    SELECT s.id, c.name AS company, s.status, s.status_reason, s.configuration_id, s.url, g.config_hash
    FROM sources s
    JOIN companies c ON c.id = s.company_id
    JOIN configurations g ON g.id = s.configuration_id
    WHERE %(after)s::text IS NULL OR s.id > %(after)s::text
    ORDER BY s.id
    LIMIT %(limit)s
), live_jobs AS (
    SELECT source_id, count(*) AS jobs FROM jobs
    WHERE gone_at IS NULL AND source_id IN (SELECT id FROM page)
    GROUP BY source_id
), last_runs AS (
    SELECT source_id, max(finished_at) AS last_crawl FROM crawl_runs
    WHERE source_id IN (SELECT id FROM page)
    GROUP BY source_id
)
SELECT page.*, coalesce(live_jobs.jobs, 0) AS jobs, last_runs.last_crawl
FROM page
LEFT JOIN live_jobs ON live_jobs.source_id = page.id
LEFT JOIN last_runs ON last_runs.source_id = page.id
ORDER BY page.id

-- name: configuration_sources
-- The sources that share one configuration (and so one noise filter), by id, with their statuses (a noise review
-- samples the active ones only).
SELECT id, status FROM sources WHERE configuration_id = %(configuration_id)s ORDER BY id

-- name: record_policy_review
-- A person's policy/terms review of the source.
UPDATE sources SET policy_reviewed_at = now(), policy_reviewed_by = %(actor)s, policy_note = %(note)s,
                   updated_at = now()
WHERE id = %(id)s
RETURNING policy_reviewed_at

-- name: save_strategies
-- A repaired configuration: new strategies and hash; the learned noise filter goes, it was learned for others.
UPDATE configurations SET strategies = %(strategies)s, config_hash = %(config_hash)s,
       config = config - 'noiseFilter', token = token + 1, updated_at = now()
WHERE id = %(configuration_id)s AND token = %(token)s
RETURNING id, token

-- name: source_state
-- A source's status, policy review and when it entered its current status.
SELECT s.id, s.status, s.status_reason, s.policy_reviewed_at, s.policy_reviewed_by, s.policy_note,
       s.configuration_id, s.next_crawl_at, g.strategies,
       (SELECT e.at FROM source_status_events e WHERE e.source_id = s.id AND e.to_status = s.status
        ORDER BY e.id DESC LIMIT 1) AS status_since,
       (SELECT e.from_status FROM source_status_events e WHERE e.source_id = s.id AND e.to_status = 'drifting'
        ORDER BY e.id DESC LIMIT 1) AS status_before_drift
FROM sources s JOIN configurations g ON g.id = s.configuration_id
WHERE s.id = %(id)s

-- name: status_events
-- A source's status history, newest first.
SELECT at, from_status, to_status, reason, actor, evidence FROM source_status_events
WHERE source_id = %(id)s ORDER BY id DESC LIMIT %(limit)s
