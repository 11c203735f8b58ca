-- Retention (gigflow.store.retention): versions, bodies and Markdown no fetch stands for any more, and old crawl runs.

-- name: prune_versions
-- Versions no fetch has stood for since the cutoff, unless one is its URL's newest or something reads it: a job
-- (its evidence), a job document, a configuration's noise filter sample, or a listing snapshot of the same body.
WITH newest AS (
    SELECT DISTINCT ON (source_id, url) id FROM source_versions
    ORDER BY source_id, url, fetched_at DESC, id DESC
), sampled AS (
    SELECT (sample ->> 'source_version_id')::bigint AS id
    FROM configurations g, jsonb_array_elements(
        CASE WHEN jsonb_typeof(g.config -> 'noiseFilter' -> 'samples') = 'array'
             THEN g.config -> 'noiseFilter' -> 'samples' ELSE '[]'::jsonb END) AS sample
    WHERE sample ->> 'source_version_id' ~ '^[0-9]{1,18}$'
)
DELETE FROM source_versions v
WHERE v.last_fetched_at < now() - %(days)s::float8 * interval '1 day'
  AND NOT EXISTS (SELECT 1 FROM newest n WHERE n.id = v.id)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.source_version_id = v.id)
  AND NOT EXISTS (SELECT 1 FROM job_documents d WHERE d.source_version_id = v.id)
  AND NOT EXISTS (SELECT 1 FROM sampled s WHERE s.id = v.id)
  AND NOT EXISTS (SELECT 1 FROM listing_snapshots l
                  WHERE l.source_id = v.source_id AND l.url = v.url AND l.sha256 = v.sha256)
RETURNING v.id, v.source_id, v.sha256

-- name: prune_bodies
-- Bodies no version references any more.
DELETE FROM bodies b WHERE NOT EXISTS (SELECT 1 FROM source_versions v WHERE v.sha256 = b.sha256)
RETURNING b.size

-- name: prune_markdowns
-- Markdown no version references any more.
DELETE FROM markdowns m WHERE NOT EXISTS (SELECT 1 FROM source_versions v WHERE v.markdown_sha256 = m.sha256)
RETURNING m.sha256

-- name: version_files_kept
-- Which of these (source, body) pairs a version of the source still stands for (their Markdown files are kept):
-- one query for a whole batch of pruned files.
SELECT f.source_id, f.sha256
FROM unnest(%(source_ids)s::text[], %(sha256s)s::text[]) AS f(source_id, sha256)
WHERE EXISTS (SELECT 1 FROM source_versions v WHERE v.sha256 = f.sha256 AND v.source_id = f.source_id)

-- name: prune_runs
-- Finished runs older than the cutoff, unless one of its source and spider's newest %(keep)s (health baselines and
-- the review app's chart), its last complete run (the empty-listing check), or named by a job or a job event.
-- Their run_health rows go with them (ON DELETE CASCADE); listing snapshots keep their data, without the run.
WITH ranked AS (
    SELECT id, row_number() OVER (PARTITION BY source_id, spider ORDER BY id DESC) AS age
    FROM crawl_runs
), last_complete AS (
    SELECT DISTINCT ON (source_id, spider) id FROM crawl_runs WHERE outcome = 'finished'
    ORDER BY source_id, spider, id DESC
)
DELETE FROM crawl_runs r
WHERE r.finished_at < now() - %(days)s::float8 * interval '1 day'
  AND NOT EXISTS (SELECT 1 FROM ranked k WHERE k.id = r.id AND k.age <= %(keep)s)
  AND NOT EXISTS (SELECT 1 FROM last_complete c WHERE c.id = r.id)
  AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.last_run_id = r.id)
  AND NOT EXISTS (SELECT 1 FROM job_events e WHERE e.run_id = r.id)
RETURNING r.id
