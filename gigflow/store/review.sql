-- The review app's reads (gigflow.store.review): the sources table, a source's page, a job's page and the
-- noise review page.

-- name: sources_page
-- The sources table: one keyset page (ids after %(after)s) matching the status and text filters, with each
-- source's live jobs, last finished run and next crawl, aggregated for that page only.
WITH page AS (
    SELECT s.id, c.name AS company, s.status, s.status_reason, s.url, s.next_crawl_at, s.configuration_id
    FROM sources s
    JOIN companies c ON c.id = s.company_id
    WHERE (%(after)s::text IS NULL OR s.id > %(after)s::text)
      AND (%(status)s::text IS NULL OR s.status = %(status)s::text)
      AND (%(pattern)s::text IS NULL OR s.id ILIKE %(pattern)s::text OR c.name ILIKE %(pattern)s::text
           OR s.url ILIKE %(pattern)s::text)
    ORDER BY s.id
    LIMIT %(limit)s
)
SELECT page.*,
       (SELECT count(*) FROM jobs j WHERE j.source_id = page.id AND j.gone_at IS NULL) AS jobs,
       last_run.outcome AS last_outcome, last_run.spider AS last_spider, last_run.finished_at AS last_finished_at
FROM page
LEFT JOIN LATERAL (
    SELECT r.outcome, r.spider, r.finished_at FROM crawl_runs r
    WHERE r.source_id = page.id AND r.finished_at IS NOT NULL
    ORDER BY r.finished_at DESC LIMIT 1
) last_run ON true
ORDER BY page.id

-- name: source
-- The source page's header: the source, its company and its configuration.
SELECT s.id, s.status, s.status_reason, s.url, s.parser_key, s.next_crawl_at, s.unchanged_runs, s.created_at,
       c.name AS company, g.id AS configuration_id, g.canonical_url, g.strategies, g.config_hash, g.token,
       g.config -> 'noiseFilter' AS noise_filter
FROM sources s
JOIN companies c ON c.id = s.company_id
JOIN configurations g ON g.id = s.configuration_id
WHERE s.id = %(id)s

-- name: source_runs
-- The source's latest runs (newest first) with the counts the chart draws, their health (mean confidence,
-- complete, drift reasons) and, while running, their owner and heartbeat.
SELECT r.id, r.spider, r.started_at, r.finished_at, r.outcome, r.owner_host, r.owner_pid, r.heartbeat_at,
       coalesce((r.stats ->> 'gigflow/jobs_new')::int, 0) AS jobs_new,
       coalesce((r.stats ->> 'gigflow/jobs_updated')::int, 0) AS jobs_updated,
       coalesce((r.stats ->> 'gigflow/jobs_unchanged')::int, 0) AS jobs_unchanged,
       coalesce((r.stats ->> 'gigflow/jobs_gone')::int, 0) AS jobs_gone,
       coalesce((r.stats ->> 'gigflow/versions_new')::int, 0) AS versions_new,
       coalesce((r.stats ->> 'gigflow/warnings')::int, 0) AS warnings,
       (h.health ->> 'mean_confidence')::float AS mean_confidence, h.complete,
       coalesce(h.drift, '[]'::jsonb) AS drift
FROM crawl_runs r
LEFT JOIN run_health h ON h.run_id = r.id
WHERE r.source_id = %(id)s
ORDER BY r.started_at DESC, r.id DESC
LIMIT %(limit)s

-- name: source_jobs
-- The source page's jobs: live ones first, then gone ones, by title; location and URL tell same-titled jobs apart.
SELECT j.id, j.title, j.url, j.fields->>'location' AS location, j.confidence, j.parser_key, j.first_seen,
       j.last_seen, j.gone_at
FROM jobs j
WHERE j.source_id = %(id)s
ORDER BY j.gone_at IS NOT NULL, j.title, j.fields->>'location', j.id
LIMIT %(limit)s

-- name: job
-- The job page: the job, its source, and its Markdown: the job's own document when it was read from a payload
-- of many jobs (an ATS board, a feed), else the stored Markdown of the version it was read from.
SELECT j.id, j.title, j.url, j.external_id, j.fields, j.evidence, j.confidence, j.parser_key, j.parser_version,
       j.first_seen, j.last_seen, j.gone_at, j.source_id, c.name AS company,
       v.id AS version_id, v.url AS version_url, v.fetched_at,
       CASE WHEN d.job_id IS NOT NULL THEN d.markdown WHEN NOT j.parser_key = ANY(%(payload_parsers)s) THEN m.markdown
       END AS markdown,
       d.evidence_path AS document_path, j.parser_key = ANY(%(payload_parsers)s) AS payload_job
FROM jobs j
JOIN sources s ON s.id = j.source_id
JOIN companies c ON c.id = s.company_id
LEFT JOIN source_versions v ON v.id = j.source_version_id
LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256
LEFT JOIN job_documents d ON d.job_id = j.id
WHERE j.id = %(id)s

-- name: job_events
-- The job page's history: why the job changed or disappeared, per run, oldest first.
SELECT e.at, e.kind, e.fields, e.run_id, r.outcome AS run_outcome
FROM job_events e
LEFT JOIN crawl_runs r ON r.id = e.run_id
WHERE e.job_id = %(id)s
ORDER BY e.id
LIMIT %(limit)s

-- name: job_canonical
-- The canonical job this per-source job is a sighting of (none before the resolver ran), and its events.
SELECT l.canonical_id, l.score, l.evidence,
       coalesce((SELECT jsonb_agg(jsonb_build_object('at', e.at, 'kind', e.kind, 'detail', e.detail) ORDER BY e.id)
                 FROM (SELECT * FROM canonical_events e WHERE e.canonical_id = l.canonical_id
                       ORDER BY e.id DESC LIMIT %(limit)s) e), '[]'::jsonb) AS events
FROM canonical_links l
WHERE l.job_id = %(id)s

-- name: configuration
-- The noise review page's header: the configuration, its company and its sources.
SELECT g.id, g.canonical_url, g.config_hash, g.token, c.name AS company,
       coalesce((SELECT array_agg(s.id ORDER BY s.id) FROM sources s WHERE s.configuration_id = g.id), '{}') AS sources
FROM configurations g
JOIN companies c ON c.id = g.company_id
WHERE g.id = %(id)s

-- name: sample_version
-- One stored version of a configuration's source, for the noise review page (never another configuration's).
SELECT v.id, v.source_id, v.url, v.content_type, b.body, v.fetched_at
FROM source_versions v
JOIN bodies b ON b.sha256 = v.sha256
JOIN sources s ON s.id = v.source_id
WHERE v.id = %(version_id)s AND s.configuration_id = %(configuration_id)s
