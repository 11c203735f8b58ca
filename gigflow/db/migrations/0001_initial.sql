CREATE TABLE companies (
    id          bigserial PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE configurations (
    id             bigserial PRIMARY KEY,
    company_id     bigint NOT NULL REFERENCES companies(id),
    canonical_url  text NOT NULL UNIQUE,
    strategies     jsonb NOT NULL,
    config_hash    text NOT NULL,
    -- Free-form JSONB; holds the learned noiseFilter. The token guards race-safe saves and resets.
    config         jsonb NOT NULL DEFAULT '{}'::jsonb,
    token          bigint NOT NULL DEFAULT 1,
    updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sources (
    id                text PRIMARY KEY,
    configuration_id  bigint NOT NULL REFERENCES configurations(id),
    company_id        bigint NOT NULL REFERENCES companies(id),
    url               text NOT NULL,
    status            text NOT NULL DEFAULT 'candidate'
                      CHECK (status IN ('candidate', 'trial', 'active', 'quarantined')),
    status_reason     text,
    parser_key        text,
    next_crawl_at     timestamptz,
    unchanged_runs    integer NOT NULL DEFAULT 0,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE source_versions (
    id             bigserial PRIMARY KEY,
    source_id      text NOT NULL REFERENCES sources(id),
    url            text NOT NULL,
    fetched_at     timestamptz NOT NULL DEFAULT now(),
    http_status    integer NOT NULL,
    content_type   text,
    etag           text,
    last_modified  text,
    sha256         text NOT NULL,
    size           integer NOT NULL,
    body           bytea NOT NULL,
    markdown       text,
    preparation    jsonb,
    UNIQUE (source_id, url, sha256)
);
CREATE INDEX source_versions_latest ON source_versions (source_id, url, fetched_at DESC);

CREATE TABLE crawl_runs (
    id           bigserial PRIMARY KEY,
    source_id    text NOT NULL REFERENCES sources(id),
    spider       text NOT NULL,
    started_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    stats        jsonb NOT NULL DEFAULT '{}'::jsonb,
    outcome      text
);

CREATE TABLE jobs (
    id                 bigserial PRIMARY KEY,
    canonical_key      text NOT NULL UNIQUE,
    source_id          text NOT NULL REFERENCES sources(id),
    source_version_id  bigint REFERENCES source_versions(id),
    title              text NOT NULL,
    url                text,
    external_id        text,
    fields             jsonb NOT NULL DEFAULT '{}'::jsonb,
    evidence           jsonb NOT NULL DEFAULT '{}'::jsonb,
    confidence         real NOT NULL,
    parser_key         text NOT NULL,
    parser_version     text NOT NULL,
    first_seen         timestamptz NOT NULL DEFAULT now(),
    last_seen          timestamptz NOT NULL DEFAULT now(),
    last_run_id        bigint REFERENCES crawl_runs(id),
    gone_at            timestamptz
);
CREATE INDEX jobs_source ON jobs (source_id);
