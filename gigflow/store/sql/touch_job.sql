-- An unchanged job seen by this run: only the sighting, and only once per run. No indexed column changes
-- (migration 0023 dropped the index on last_run_id), so PostgreSQL can write it as a HOT update.
UPDATE jobs SET last_seen = now(), last_run_id = %(run_id)s
WHERE id = %(id)s AND last_run_id IS DISTINCT FROM %(run_id)s
