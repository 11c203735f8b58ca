-- The listing snapshots of the source's latest run that stored any, one per URL.
SELECT DISTINCT ON (url) id, run_id, url, content_type, body, fetched_at
FROM listing_snapshots
WHERE source_id = %(source_id)s
  AND run_id = (SELECT max(run_id) FROM listing_snapshots WHERE source_id = %(source_id)s)
ORDER BY url, id DESC
