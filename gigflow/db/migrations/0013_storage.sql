-- Storage that grows with change, not with crawls: each distinct raw body is stored once (by sha256, shared across
-- sources) and compressed; a version records when it was last fetched (a fetch whose prepared content and jobs
-- did not change refreshes it instead of storing a new version) and a digest of the jobs read from it.
CREATE TABLE bodies (
    sha256  text PRIMARY KEY,
    size    integer NOT NULL,
    body    bytea NOT NULL
);
-- lz4 TOAST compression where the server was built with it (several times faster than the default pglz at a
-- similar ratio); a server without it keeps pglz.
DO $$
BEGIN
    EXECUTE 'ALTER TABLE bodies ALTER COLUMN body SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE source_versions ALTER COLUMN markdown SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
    RAISE NOTICE 'lz4 compression unavailable on this server; bodies use pglz';
END
$$;

INSERT INTO bodies (sha256, size, body)
SELECT DISTINCT ON (sha256) sha256, size, body FROM source_versions ORDER BY sha256, id
ON CONFLICT (sha256) DO NOTHING;

ALTER TABLE source_versions DROP COLUMN body;
ALTER TABLE source_versions ADD CONSTRAINT source_versions_body FOREIGN KEY (sha256) REFERENCES bodies (sha256);
ALTER TABLE source_versions ADD COLUMN last_fetched_at timestamptz;
UPDATE source_versions SET last_fetched_at = fetched_at;
ALTER TABLE source_versions ALTER COLUMN last_fetched_at SET NOT NULL, ALTER COLUMN last_fetched_at SET DEFAULT now();
ALTER TABLE source_versions ADD COLUMN jobs_digest text;
CREATE INDEX source_versions_last_fetched ON source_versions (source_id, url, last_fetched_at DESC, id DESC);
CREATE INDEX source_versions_sha256 ON source_versions (sha256);
CREATE INDEX jobs_source_version ON jobs (source_version_id);
