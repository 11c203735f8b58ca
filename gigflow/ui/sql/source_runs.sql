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
