-- Whether an unmerge keeps these two canonical jobs apart (a sighting of one was separated from the other).
SELECT EXISTS (
    SELECT 1 FROM canonical_separations s JOIN canonical_links l ON l.job_id = s.job_id
    WHERE (l.canonical_id = %(a)s AND s.canonical_id = %(b)s) OR (l.canonical_id = %(b)s AND s.canonical_id = %(a)s)
) AS separated
