-- The one place a source's next crawl time is written: by the run's finalizer, in the transaction that records
-- the run's outcome (gigflow.runs.decide.next_crawl chose the time).
UPDATE sources SET next_crawl_at = %(next_crawl_at)s, updated_at = now()
WHERE id = %(source_id)s
RETURNING next_crawl_at
