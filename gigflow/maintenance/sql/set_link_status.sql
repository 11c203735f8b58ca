UPDATE canonical_jobs SET link_status = %(status)s, next_check_at = now() + make_interval(secs => %(next_seconds)s)
WHERE id = %(id)s
