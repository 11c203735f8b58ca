-- Job maintenance (gigflow.maintenance): one canonical job per real vacancy above the per-source jobs, their
-- link checks, freshness, quality score and publish gate.
CREATE TABLE canonical_jobs (
    id              bigserial PRIMARY KEY,
    employer_key    text NOT NULL DEFAULT '',     -- lower-cased employer: the blocking key for fuzzy matches
    first_seen      timestamptz NOT NULL DEFAULT now(),
    merged_into     bigint REFERENCES canonical_jobs(id),  -- a duplicate folded into another (reversible)
    link_status     text NOT NULL DEFAULT 'unchecked'
                    CHECK (link_status IN ('unchecked', 'ok', 'unverifiable', 'redirected', 'broken')),
    expired_at      timestamptz,
    stale_at        timestamptz,
    quality_score   integer,
    quality_parts   jsonb NOT NULL DEFAULT '{}'::jsonb,
    published_at    timestamptz,
    next_check_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX canonical_jobs_employer ON canonical_jobs (employer_key) WHERE merged_into IS NULL;
CREATE INDEX canonical_jobs_next_check ON canonical_jobs (next_check_at) WHERE merged_into IS NULL;
CREATE INDEX canonical_jobs_published ON canonical_jobs (published_at) WHERE published_at IS NOT NULL;

-- Which canonical job each per-source job is a sighting of, why (evidence) and how sure (score 0..1).
CREATE TABLE canonical_links (
    job_id        bigint PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    canonical_id  bigint NOT NULL REFERENCES canonical_jobs(id),
    evidence      jsonb NOT NULL DEFAULT '[]'::jsonb,
    score         real NOT NULL,
    match_keys    text[] NOT NULL DEFAULT '{}',   -- exact identity keys (url:, apply:, ats:) of this sighting
    simhash       bigint,                          -- 64-bit simhash of the description
    linked_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX canonical_links_canonical ON canonical_links (canonical_id);
CREATE INDEX canonical_links_keys ON canonical_links USING gin (match_keys);

-- `scrapy jobs unmerge` says "not this canonical job": the resolver never links the job there again.
CREATE TABLE canonical_separations (
    job_id        bigint NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    canonical_id  bigint NOT NULL REFERENCES canonical_jobs(id) ON DELETE CASCADE,
    at            timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (job_id, canonical_id)
);

-- Every check of a canonical job's job URL or apply URL.
CREATE TABLE link_checks (
    id            bigserial PRIMARY KEY,
    canonical_id  bigint NOT NULL REFERENCES canonical_jobs(id) ON DELETE CASCADE,
    role          text NOT NULL CHECK (role IN ('url', 'apply_url')),
    url           text NOT NULL,
    method        text,
    status        integer,
    outcome       text NOT NULL CHECK (outcome IN ('ok', 'unverifiable', 'redirected', 'broken', 'suspect', 'refused')),
    target        text,
    error         text,
    checked_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX link_checks_canonical ON link_checks (canonical_id, role, id DESC);

-- What happened to a canonical job: merged, unmerged, expired, stale, link outcomes, published, unpublished.
CREATE TABLE canonical_events (
    id            bigserial PRIMARY KEY,
    canonical_id  bigint NOT NULL REFERENCES canonical_jobs(id) ON DELETE CASCADE,
    kind          text NOT NULL,
    detail        jsonb NOT NULL DEFAULT '{}'::jsonb,
    at            timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX canonical_events_canonical ON canonical_events (canonical_id, id);

-- Per-job Markdown for jobs read from a payload (ATS boards, feeds): the job's own description HTML through the
-- same preparation as pages, instead of the whole payload's Markdown.
CREATE TABLE job_documents (
    job_id             bigint PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    source_version_id  bigint REFERENCES source_versions(id) ON DELETE SET NULL,
    evidence_path      text NOT NULL,
    markdown           text NOT NULL,
    prepared_at        timestamptz NOT NULL DEFAULT now()
);
