SELECT at, from_status, to_status, reason, actor, evidence FROM source_status_events
WHERE source_id = %(id)s ORDER BY id DESC LIMIT %(limit)s
