-- A new canonical job; its first link check falls at a random moment of the check interval (spread out).
INSERT INTO canonical_jobs (employer_key, next_check_at)
VALUES (%(employer_key)s, now() + random() * make_interval(secs => %(spread_seconds)s))
RETURNING id
