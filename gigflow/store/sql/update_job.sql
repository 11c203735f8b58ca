-- A job seen again: its latest content, seen by this run (last_run_id kept when re-extracted outside a run).
UPDATE jobs SET
    source_version_id = %(source_version_id)s,
    title = %(title)s,
    url = %(url)s,
    external_id = %(external_id)s,
    fields = %(fields)s,
    evidence = %(evidence)s,
    confidence = %(confidence)s,
    parser_key = %(parser_key)s,
    parser_version = %(parser_version)s,
    last_seen = CASE WHEN %(run_id)s::bigint IS NULL THEN last_seen ELSE now() END,
    last_run_id = coalesce(%(run_id)s::bigint, last_run_id),
    gone_at = CASE WHEN %(run_id)s::bigint IS NULL THEN gone_at ELSE NULL END
WHERE id = %(id)s
