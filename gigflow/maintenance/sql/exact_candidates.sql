-- Canonical jobs with a sighting sharing an exact identity key, except those the job was unmerged from.
SELECT l.canonical_id, l.job_id, l.match_keys
FROM canonical_links l
JOIN canonical_jobs c ON c.id = l.canonical_id
WHERE l.match_keys && %(keys)s::text[] AND c.merged_into IS NULL
  AND NOT EXISTS (SELECT 1 FROM canonical_separations s
                  WHERE s.job_id = %(job_id)s AND s.canonical_id = l.canonical_id)
ORDER BY l.canonical_id, l.job_id
