-- Live sightings of the same employer (the blocking key), for the fuzzy score; at most %(limit)s.
SELECT l.canonical_id, l.job_id, l.simhash, j.source_id, j.parser_key, j.title, j.fields->>'location' AS location,
       j.fields->>'description' AS description
FROM canonical_jobs c
JOIN canonical_links l ON l.canonical_id = c.id
JOIN jobs j ON j.id = l.job_id
WHERE c.employer_key = %(employer_key)s AND c.merged_into IS NULL AND j.gone_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM canonical_separations s
                  WHERE s.job_id = %(job_id)s AND s.canonical_id = l.canonical_id)
ORDER BY l.canonical_id DESC
LIMIT %(limit)s
