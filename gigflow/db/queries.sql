-- The database room's own queries (gigflow.db.queries): the server it talks to, the process's liveness key and the
-- record of applied migrations.

-- name: server_version_num
SHOW server_version_num

-- name: user_table_count
-- Tables outside the system schemas: a database to restore into must have none.
SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')

-- name: take_liveness_lock
-- The holder's liveness key, held by this session until it ends (see migration 0021).
SELECT pg_try_advisory_lock(%(holder_lock)s) AS locked

-- name: echo_liveness_key
-- One round trip on the liveness connection: it still answers (and so still holds its key).
SELECT %(holder_lock)s::bigint AS key

-- name: take_migration_lock
-- Migrations one process at a time: many crawl processes may start (and upgrade) at once.
SELECT pg_advisory_lock(%(key)s)

-- name: release_migration_lock
SELECT pg_advisory_unlock(%(key)s)

-- name: create_schema_migrations
CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())

-- name: create_schema_procedures
CREATE TABLE IF NOT EXISTS schema_procedures (name text PRIMARY KEY, sha256 text NOT NULL)

-- name: has_schema_migrations
SELECT to_regclass('schema_migrations') IS NOT NULL

-- name: try_session_lock
-- A session advisory lock, or false at once when another session holds it (one indexer, one webhook sender).
SELECT pg_try_advisory_lock(%(key)s)

-- name: release_session_lock
SELECT pg_advisory_unlock(%(key)s)

-- name: applied_migrations
SELECT version FROM schema_migrations

-- name: record_migration
INSERT INTO schema_migrations (version, name) VALUES (%(version)s, %(name)s)

-- name: applied_procedures
-- Each stored procedure file applied, with the digest of the text applied (a changed file is applied again).
SELECT name, sha256 FROM schema_procedures

-- name: record_procedure
INSERT INTO schema_procedures (name, sha256) VALUES (%(name)s, %(sha256)s)
ON CONFLICT (name) DO UPDATE SET sha256 = EXCLUDED.sha256

-- name: queue_table
-- The task queue's jobs table (procrastinate's schema), or NULL before it was created.
SELECT to_regclass('procrastinate_jobs') AS t
