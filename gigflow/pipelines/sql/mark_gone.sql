-- Jobs of this source last seen by this spider but not by this complete run are gone: marked, never deleted.
-- Scoped to the spider, so crawling one strategy of a source never retires the jobs another strategy found.
UPDATE jobs SET gone_at = now()
WHERE source_id = %(source_id)s AND gone_at IS NULL AND (last_run_id IS DISTINCT FROM %(run_id)s)
  AND last_run_id IN (SELECT id FROM crawl_runs WHERE source_id = %(source_id)s AND spider = %(spider)s)
