-- Canonical jobs the daily link sweep covers (not folded into another, not expired).
SELECT count(*) AS n FROM canonical_jobs WHERE merged_into IS NULL AND expired_at IS NULL
