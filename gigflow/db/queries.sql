-- The database room's own queries (gigflow.db.queries): the server it talks to and the process's liveness key.

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
