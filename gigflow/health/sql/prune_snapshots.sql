-- Keep the newest %(keep)s snapshots of each listing URL of the source.
DELETE FROM listing_snapshots s
USING (SELECT id, row_number() OVER (PARTITION BY url ORDER BY id DESC) AS n
       FROM listing_snapshots WHERE source_id = %(source_id)s) ranked
WHERE s.id = ranked.id AND ranked.n > %(keep)s
