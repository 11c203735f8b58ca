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
