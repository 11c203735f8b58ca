-- GET /api/v1/jobs (no q): published canonical jobs, newest first, keyset after %(before)s (a canonical id);
-- %(limit)s is one more than the page so the caller knows whether another page follows.
SELECT d.canonical_id AS id, d.title, d.employer, d.location, d.remote, d.employment_type, d.date_posted,
       d.source_ids, d.language, c.published_at, c.quality_score, c.link_status, c.first_seen,
       greatest(d.modified_at, c.published_at) AS modified_at, NULL::real AS rank
FROM delivery_jobs d
JOIN canonical_jobs c ON c.id = d.canonical_id
WHERE c.published_at IS NOT NULL AND c.merged_into IS NULL
  AND (%(before)s::bigint IS NULL OR d.canonical_id < %(before)s::bigint)
  AND (%(before)s::bigint IS NULL OR c.id < %(before)s::bigint)  -- lets a merge join start there too
  AND (%(source)s::text IS NULL OR d.source_ids @> ARRAY[%(source)s::text])
  AND (%(employer)s::text IS NULL OR lower(d.employer) = lower(%(employer)s::text))
  AND (%(location)s::text IS NULL OR d.location ILIKE '%%' || %(location)s::text || '%%')
  AND (%(remote)s::text IS NULL OR d.remote = %(remote)s::text)
  AND (%(employment_type)s::text IS NULL OR lower(d.employment_type) = lower(%(employment_type)s::text))
  AND (%(posted_since)s::date IS NULL OR d.date_posted >= %(posted_since)s::date)
ORDER BY d.canonical_id DESC
LIMIT %(limit)s
