-- Every canonical job id after %(after)s (a full rebuild pages through them).
SELECT id FROM canonical_jobs WHERE id > %(after)s AND merged_into IS NULL ORDER BY id LIMIT %(limit)s
