-- Canonical jobs for export, with the best sighting's fields, every sighting (with its evidence and link) and
-- the latest link checks. %(source_id)s: seen by that source; %(published)s: published only; %(since)s: seen since.
-- The source and since filters pick canonical ids from the sightings first (an array computed once: jobs_source,
-- canonical_links' keys), then read those canonical jobs by key, so the sub-selects below run only for the jobs
-- exported, not for every canonical job. (An IN (sub-select) under OR stays a filter over every canonical job.)
SELECT c.id, best.title, best.fields->>'employer' AS employer, best.fields->>'location' AS location,
       best.url, best.fields->>'apply_url' AS apply_url, best.fields AS fields, best.evidence,
       best.markdown AS description_markdown,
       c.link_status, c.expired_at, c.stale_at, c.quality_score, c.quality_parts, c.published_at,
       -- first seen: the earliest sighting (the canonical job is made later, when the resolver runs), never after
       -- last seen
       least(c.first_seen, sightings.first_seen) AS first_seen,
       greatest(sightings.last_seen, least(c.first_seen, sightings.first_seen)) AS last_seen,
       sightings.list AS sightings, checks.list AS link_checks
FROM canonical_jobs c
CROSS JOIN LATERAL (
    SELECT j.title, j.url, j.fields, j.evidence, d.markdown
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id LEFT JOIN job_documents d ON d.job_id = j.id
    WHERE l.canonical_id = c.id
    ORDER BY (j.gone_at IS NULL) DESC, j.confidence DESC, j.last_seen DESC, j.id
    LIMIT 1
) best
CROSS JOIN LATERAL (
    SELECT max(j.last_seen) AS last_seen, min(j.first_seen) AS first_seen,
           jsonb_agg(jsonb_build_object(
               'job_id', j.id, 'source_id', j.source_id, 'key', j.canonical_key, 'title', j.title, 'url', j.url,
               'parser_key', j.parser_key, 'confidence', j.confidence, 'first_seen', j.first_seen,
               'last_seen', j.last_seen, 'gone_at', j.gone_at, 'fields', j.fields, 'evidence', j.evidence,
               'link_score', l.score, 'link_evidence', l.evidence, 'markdown', d.markdown) ORDER BY j.id) AS list
    FROM canonical_links l JOIN jobs j ON j.id = l.job_id LEFT JOIN job_documents d ON d.job_id = j.id
    WHERE l.canonical_id = c.id
) sightings
CROSS JOIN LATERAL (
    SELECT coalesce(jsonb_agg(jsonb_build_object('role', k.role, 'url', k.url, 'method', k.method,
                                                 'status', k.status, 'outcome', k.outcome, 'target', k.target,
                                                 'error', k.error, 'checked_at', k.checked_at)
                              ORDER BY k.id DESC), '[]'::jsonb) AS list
    FROM (SELECT * FROM link_checks k WHERE k.canonical_id = c.id ORDER BY k.id DESC LIMIT 4) k
) checks
WHERE c.merged_into IS NULL
  AND (%(canonical_id)s::bigint IS NULL OR c.id = %(canonical_id)s)
  AND (%(source_id)s::text IS NULL OR c.id = ANY(ARRAY(
      SELECT l.canonical_id FROM jobs j JOIN canonical_links l ON l.job_id = j.id WHERE j.source_id = %(source_id)s)))
  AND (NOT %(published)s OR c.published_at IS NOT NULL)
  AND (%(since)s::timestamptz IS NULL OR c.id = ANY(ARRAY(
      SELECT l.canonical_id FROM jobs j JOIN canonical_links l ON l.job_id = j.id
      WHERE j.last_seen >= %(since)s::timestamptz)))
ORDER BY c.id
