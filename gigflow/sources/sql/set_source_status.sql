UPDATE sources SET status = %(status)s, status_reason = %(reason)s, updated_at = now()
WHERE id = %(id)s
