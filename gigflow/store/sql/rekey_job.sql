-- An id found shared by two pages of one run is no identity: the job stored under it moves to its URL key
-- (unless a job already holds that key).
UPDATE jobs SET canonical_key = %(new_key)s
WHERE source_id = %(source_id)s AND canonical_key = %(old_key)s
  AND NOT EXISTS (SELECT 1 FROM jobs WHERE source_id = %(source_id)s AND canonical_key = %(new_key)s)
