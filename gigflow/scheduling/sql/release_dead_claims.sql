-- Claims whose holding process is gone (its liveness key is free): the source is free to be scheduled again.
DELETE FROM crawl_claims WHERE holder_lock IS NOT NULL AND NOT gigflow_holder_alive(holder_lock)
RETURNING source_id
