-- The holder's liveness key, held by this session until it ends (see migration 0021).
SELECT pg_try_advisory_lock(%(holder_lock)s) AS locked
