-- A status event without a change of the sources row (a new source's first status).
INSERT INTO source_status_events (source_id, from_status, to_status, reason, actor, evidence)
VALUES (%(id)s, %(from_status)s, %(status)s, %(reason)s, %(actor)s, %(evidence)s)
