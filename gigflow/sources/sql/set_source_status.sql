-- A status change and its event in one statement: the history is never missing a change.
WITH old AS (
    SELECT id, status FROM sources WHERE id = %(id)s FOR UPDATE
), changed AS (
    UPDATE sources s SET status = %(status)s, status_reason = %(reason)s, updated_at = now()
    FROM old WHERE s.id = old.id
    RETURNING s.id, old.status AS from_status
)
INSERT INTO source_status_events (source_id, from_status, to_status, reason, actor, evidence)
SELECT id, from_status, %(status)s, %(reason)s, %(actor)s, %(evidence)s FROM changed
RETURNING id
