-- Delivery (gigflow.delivery, `scrapy serve-api`): API tokens, a commit-safe order for the job events the store
-- already writes (the change feed), and a search/list read model of canonical jobs.

-- Tokens for the read API: only the sha256 of a token is kept; scopes say which endpoints it may read.
CREATE TABLE api_tokens (
    id            bigserial PRIMARY KEY,
    name          text NOT NULL UNIQUE,
    token_sha256  text NOT NULL UNIQUE,
    scopes        text[] NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    revoked_at    timestamptz
);

-- The writing transaction's id on every event. Sequence ids are handed out at INSERT, not at COMMIT, so a reader
-- paging by id alone can pass a row that commits later with a smaller id. The feed only hands out events whose
-- transaction is older than the oldest transaction still running (delivery_feed_frontier): those are all
-- finished, so nothing can appear behind a cursor later. Ordered by (xid, table, id). Existing rows share the migration's xid.
ALTER TABLE job_events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX job_events_feed ON job_events (xid, id);
ALTER TABLE canonical_events ADD COLUMN xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX canonical_events_feed ON canonical_events (xid, id);

-- How far the feed may go now: the oldest transaction of THIS database still running at the calling statement's
-- snapshot, else the snapshot's xmax. Transaction ids are cluster-wide, so pg_snapshot_xmin alone would let a long
-- transaction in another database (a shared server) hold the feed back. A running transaction whose database
-- cannot be told (it ended meanwhile, a prepared transaction) counts as ours: waiting is safe, skipping is not.
CREATE FUNCTION delivery_feed_frontier() RETURNS xid8 LANGUAGE sql STABLE AS $$
    WITH snap AS (SELECT pg_current_snapshot() AS s),
    here AS (SELECT oid FROM pg_database WHERE datname = current_database())
    SELECT coalesce(min(x), (SELECT pg_snapshot_xmax(s) FROM snap))
    FROM snap, pg_snapshot_xip(snap.s) AS x
    WHERE NOT EXISTS (
        SELECT 1 FROM pg_locks k JOIN pg_stat_activity a ON a.pid = k.pid
        WHERE k.locktype = 'transactionid' AND k.mode = 'ExclusiveLock' AND k.granted
          AND k.transactionid::text::bigint = (x::text::numeric % 4294967296)::bigint
          AND a.datid IS DISTINCT FROM (SELECT oid FROM here))
$$;

-- What the list and search endpoints read: one row per canonical job, kept by the indexer (a change-feed
-- consumer) from the best sighting, with a weighted full-text vector built with the job's language dictionary.
CREATE TABLE delivery_jobs (
    canonical_id     bigint PRIMARY KEY REFERENCES canonical_jobs(id) ON DELETE CASCADE,
    title            text NOT NULL,
    employer         text,
    location         text,
    remote           text,                      -- remote, hybrid, onsite (as extracted)
    employment_type  text,
    date_posted      date,
    source_ids       text[] NOT NULL DEFAULT '{}',
    language         text NOT NULL,             -- a text search configuration name (regconfig)
    search           tsvector NOT NULL,
    digest           text NOT NULL,             -- sha256 of what the row was built from: unchanged rows are skipped
    modified_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX delivery_jobs_search ON delivery_jobs USING gin (search);
CREATE INDEX delivery_jobs_sources ON delivery_jobs USING gin (source_ids);
CREATE INDEX delivery_jobs_employer ON delivery_jobs (lower(employer), canonical_id);
CREATE INDEX delivery_jobs_posted ON delivery_jobs (date_posted, canonical_id);

-- Where each feed consumer inside gigflow (the indexer) stands in the change feed.
CREATE TABLE delivery_cursors (
    name        text PRIMARY KEY,
    position    text NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);
