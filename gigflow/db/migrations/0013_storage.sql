-- Storage that grows with change, not with crawls: each distinct raw body and each distinct prepared Markdown is
-- stored once (by sha256, shared across sources and versions) and compressed; a version records when it was last
-- fetched (a fetch whose prepared content and jobs did not change refreshes it instead of storing a new version)
-- and a digest of the jobs read from it.
CREATE TABLE bodies (
    sha256  text PRIMARY KEY,
    size    integer NOT NULL,
    body    bytea NOT NULL
);
CREATE TABLE markdowns (
    sha256    text PRIMARY KEY,
    markdown  text NOT NULL
);
-- lz4 TOAST compression where the server was built with it (several times faster than the default pglz at a
-- similar ratio); a server without it keeps pglz.
DO $$
BEGIN
    EXECUTE 'ALTER TABLE bodies ALTER COLUMN body SET COMPRESSION lz4';
    EXECUTE 'ALTER TABLE markdowns ALTER COLUMN markdown SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
    RAISE NOTICE 'lz4 compression unavailable on this server; bodies and Markdown use pglz';
END
$$;

INSERT INTO bodies (sha256, size, body)
SELECT DISTINCT ON (sha256) sha256, size, body FROM source_versions ORDER BY sha256, id
ON CONFLICT (sha256) DO NOTHING;

ALTER TABLE source_versions DROP COLUMN body;

ALTER TABLE source_versions ADD COLUMN markdown_sha256 text;
UPDATE source_versions SET markdown_sha256 = encode(sha256(convert_to(markdown, 'UTF8')), 'hex')
WHERE markdown IS NOT NULL;
INSERT INTO markdowns (sha256, markdown)
SELECT DISTINCT ON (markdown_sha256) markdown_sha256, markdown FROM source_versions
WHERE markdown_sha256 IS NOT NULL ORDER BY markdown_sha256, id;
ALTER TABLE source_versions DROP COLUMN markdown;
ALTER TABLE source_versions ADD CONSTRAINT source_versions_markdown FOREIGN KEY (markdown_sha256)
    REFERENCES markdowns (sha256);
ALTER TABLE source_versions ADD CONSTRAINT source_versions_body FOREIGN KEY (sha256) REFERENCES bodies (sha256);
ALTER TABLE source_versions ADD COLUMN last_fetched_at timestamptz;
UPDATE source_versions SET last_fetched_at = fetched_at;
ALTER TABLE source_versions ALTER COLUMN last_fetched_at SET NOT NULL, ALTER COLUMN last_fetched_at SET DEFAULT now();
ALTER TABLE source_versions ADD COLUMN jobs_digest text;
-- last_fetched_at is in no index and pages keep room, so refreshing a version is a HOT update (no index growth).
ALTER TABLE source_versions SET (fillfactor = 80);
CREATE INDEX source_versions_sha256 ON source_versions (sha256);
CREATE INDEX source_versions_markdown ON source_versions (markdown_sha256);
CREATE INDEX jobs_source_version ON jobs (source_version_id);
