INSERT INTO canonical_events (canonical_id, kind, detail) VALUES (%(canonical_id)s, %(kind)s, %(detail)s)
