-- Job identity: keys never cross sources. A key is 'id:<external id>' (a trustworthy id), else
-- 'url:<canonical URL>' with '#entry:<hash>' when several jobs share that URL. Existing keys are migrated.
ALTER TABLE jobs DROP CONSTRAINT IF EXISTS jobs_canonical_key_key;
UPDATE jobs SET canonical_key = CASE
    WHEN external_id IS NOT NULL AND canonical_key = parser_key || ':' || source_id || ':' || external_id
        THEN 'id:' || external_id
    ELSE 'url:' || canonical_key END;
-- The same external id stored under two parser keys of one source would now collide: the older rows keep
-- their identity apart rather than being merged.
UPDATE jobs j SET canonical_key = j.canonical_key || '#job:' || j.id
FROM (SELECT id, row_number() OVER (PARTITION BY source_id, canonical_key ORDER BY last_seen DESC, id) AS n
      FROM jobs) d
WHERE d.id = j.id AND d.n > 1;
ALTER TABLE jobs ADD CONSTRAINT jobs_source_key UNIQUE (source_id, canonical_key);
CREATE INDEX jobs_source_external_id ON jobs (source_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX jobs_last_run ON jobs (last_run_id);

-- Why a job changed or disappeared.
CREATE TABLE job_events (
    id       bigserial PRIMARY KEY,
    job_id   bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    run_id   bigint REFERENCES crawl_runs(id),
    kind     text NOT NULL CHECK (kind IN ('seen', 'updated', 'gone', 'revived', 'reextracted')),
    fields   text[] NOT NULL DEFAULT '{}',
    at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_events_job ON job_events (job_id, id);

-- Who owns a run, and whether it is still alive.
ALTER TABLE crawl_runs ADD COLUMN owner_host text, ADD COLUMN owner_pid integer, ADD COLUMN heartbeat_at timestamptz;
CREATE INDEX crawl_runs_unfinished ON crawl_runs (source_id, spider) WHERE finished_at IS NULL;
CREATE INDEX crawl_runs_source_spider ON crawl_runs (source_id, spider, id DESC);

-- Mailbox messages that failed: skipped by later runs after MAILBOX_MAX_ATTEMPTS failures.
CREATE TABLE mailbox_failures (
    source_id      text NOT NULL REFERENCES sources(id),
    message_key    text NOT NULL,
    error          text NOT NULL,
    attempts       integer NOT NULL DEFAULT 1,
    first_failed   timestamptz NOT NULL DEFAULT now(),
    last_failed    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (source_id, message_key)
);
