-- The source is free to be scheduled again (its crawl closed, or no node took its jobs).
DELETE FROM crawl_claims WHERE source_id = %(source_id)s
