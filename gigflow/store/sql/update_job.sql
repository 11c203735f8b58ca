-- A job seen again whose content changed: its latest content, seen by this run (last_run_id kept when re-extracted
-- outside a run). No row when nothing but the sighting would change: the caller then only touches it
-- (touch_job.sql), so an unchanged job is never rewritten whole.
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
  AND (source_version_id, title, url, external_id, fields, evidence, confidence, parser_key, parser_version,
       gone_at IS NULL OR %(run_id)s::bigint IS NULL)
      IS DISTINCT FROM
      (%(source_version_id)s::bigint, %(title)s::text, %(url)s::text, %(external_id)s::text, %(fields)s::jsonb,
       %(evidence)s::jsonb, %(confidence)s::real, %(parser_key)s::text, %(parser_version)s::text, true)
RETURNING id
