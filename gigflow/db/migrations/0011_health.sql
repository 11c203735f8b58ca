-- Source lifecycle, health and drift (README "Source lifecycle").
ALTER TABLE sources DROP CONSTRAINT IF EXISTS sources_status_check;
ALTER TABLE sources ADD CONSTRAINT sources_status_check
    CHECK (status IN ('candidate', 'trial', 'active', 'drifting', 'quarantined'));
-- The policy/terms review is a person's decision, recorded with a note; nothing automatic sets it.
ALTER TABLE sources ADD COLUMN policy_reviewed_at timestamptz, ADD COLUMN policy_reviewed_by text,
                    ADD COLUMN policy_note text;

-- Every status change: from, to, why, who, and the figures it was based on.
CREATE TABLE source_status_events (
    id           bigserial PRIMARY KEY,
    source_id    text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    from_status  text,
    to_status    text NOT NULL,
    reason       text,
    actor        text NOT NULL DEFAULT 'gigflow',
    evidence     jsonb NOT NULL DEFAULT '{}'::jsonb,
    at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX source_status_events_source ON source_status_events (source_id, id DESC);

-- One row per finalized run: its health figures and the drift found against the source's recent complete runs.
CREATE TABLE run_health (
    run_id     bigint PRIMARY KEY REFERENCES crawl_runs(id) ON DELETE CASCADE,
    source_id  text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    spider     text NOT NULL,
    complete   boolean NOT NULL,
    health     jsonb NOT NULL,
    drift      jsonb NOT NULL DEFAULT '[]'::jsonb,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX run_health_source ON run_health (source_id, spider, run_id DESC);

-- Listing pages as fetched (href strategy), for repairs tried on snapshots rather than on the live site.
CREATE TABLE listing_snapshots (
    id            bigserial PRIMARY KEY,
    source_id     text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    run_id        bigint REFERENCES crawl_runs(id) ON DELETE SET NULL,
    url           text NOT NULL,
    sha256        text NOT NULL,
    content_type  text,
    body          bytea NOT NULL,
    fetched_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX listing_snapshots_latest ON listing_snapshots (source_id, url, id DESC);
