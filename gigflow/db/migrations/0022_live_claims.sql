-- A crawl claim whose holder died is released at once (by `scrapy sources sweep` and by the next schedule-due
-- pass) instead of after SCHEDULE_CLAIM_SECONDS: the process holding a claim (the crawl, or the batch process its
-- source waits in) records its liveness key (migration 0021). A claim a schedule-due pass made for a job no node
-- has started yet has none, and waits for its expiry as before.
ALTER TABLE crawl_claims ADD COLUMN holder_lock bigint;
