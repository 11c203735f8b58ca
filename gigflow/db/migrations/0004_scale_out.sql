-- Scale-out: a claim per source while a scheduled or running crawl holds it, and the indexes the listing
-- commands page through.

-- One row per source that schedule-due handed to a node or whose crawl is running. A live claim
-- (expires_at in the future) keeps the source from being scheduled again anywhere; the crawl deletes it when
-- it closes, and a claim whose crawl died simply expires.
CREATE TABLE crawl_claims (
    source_id   text PRIMARY KEY REFERENCES sources(id) ON DELETE CASCADE,
    jobs        jsonb NOT NULL DEFAULT '[]'::jsonb,  -- [{"spider", "node", "job_id"}] as scheduled
    claimed_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL
);

-- sources list: the last crawl per source (and live jobs per source through jobs_listing_live).
CREATE INDEX crawl_runs_source_finished ON crawl_runs (source_id, finished_at);
-- jobs: keyset pages in (source_id, title, id) order, live jobs only or (--all) every job.
CREATE INDEX jobs_listing_live ON jobs (source_id, title, id) WHERE gone_at IS NULL;
CREATE INDEX jobs_listing ON jobs (source_id, title, id);
-- schedule-due: due active sources in next_crawl_at order.
CREATE INDEX sources_due ON sources (next_crawl_at NULLS FIRST, id) WHERE status = 'active';
