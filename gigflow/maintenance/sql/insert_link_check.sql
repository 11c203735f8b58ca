INSERT INTO link_checks (canonical_id, role, url, method, status, outcome, target, error)
VALUES (%(canonical_id)s, %(role)s, %(url)s, %(method)s, %(status)s, %(outcome)s, %(target)s, %(error)s)
