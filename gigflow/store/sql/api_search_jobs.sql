-- GET /api/v1/jobs?q=...: published canonical jobs matching q, best first (ts_rank_cd over the weighted vector:
-- title A, employer B, location C, description D), keyset after (%(rank)s, %(before)s). q is parsed with every
-- dictionary in %(configs)s (gigflow.delivery.language.QUERY_CONFIGS) and the parses OR-ed, so a German query meets German stems and an English one English
-- stems without knowing the query's language (equal parses once).
WITH q AS (
    SELECT string_agg(DISTINCT '(' || parsed::text || ')', ' | ')::tsquery AS query
    FROM unnest(%(configs)s::text[]::regconfig[]) AS config,
         LATERAL websearch_to_tsquery(config, %(q)s) AS parsed
    WHERE numnode(parsed) > 0
)
SELECT * FROM (
    SELECT d.canonical_id AS id, d.title, d.employer, d.location, d.remote, d.employment_type, d.date_posted,
           d.source_ids, d.language, c.published_at, c.quality_score, c.link_status, c.first_seen,
           greatest(d.modified_at, c.published_at) AS modified_at,
           ts_rank_cd(d.search, q.query, %(normalization)s) AS rank
    FROM delivery_jobs d
    CROSS JOIN q
    JOIN canonical_jobs c ON c.id = d.canonical_id
    WHERE d.search @@ q.query
      AND c.published_at IS NOT NULL AND c.merged_into IS NULL
      AND (%(source)s::text IS NULL OR d.source_ids @> ARRAY[%(source)s::text])
      AND (%(employer)s::text IS NULL OR lower(d.employer) = lower(%(employer)s::text))
      AND (%(location)s::text IS NULL OR d.location ILIKE '%%' || %(location)s::text || '%%')
      AND (%(remote)s::text IS NULL OR d.remote = %(remote)s::text)
      AND (%(employment_type)s::text IS NULL OR lower(d.employment_type) = lower(%(employment_type)s::text))
      AND (%(posted_since)s::date IS NULL OR d.date_posted >= %(posted_since)s::date)
) hits
WHERE %(rank)s::real IS NULL OR (hits.rank, hits.id) < (%(rank)s::real, %(before)s::bigint)
ORDER BY hits.rank DESC, hits.id DESC
LIMIT %(limit)s
