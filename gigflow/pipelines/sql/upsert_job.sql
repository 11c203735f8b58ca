INSERT INTO jobs (canonical_key, source_id, source_version_id, title, url, external_id, fields, evidence,
                  confidence, parser_key, parser_version, last_run_id)
VALUES (%(canonical_key)s, %(source_id)s, %(source_version_id)s, %(title)s, %(url)s, %(external_id)s, %(fields)s,
        %(evidence)s, %(confidence)s, %(parser_key)s, %(parser_version)s, %(run_id)s)
ON CONFLICT (canonical_key) DO UPDATE SET
    source_id = EXCLUDED.source_id,
    source_version_id = EXCLUDED.source_version_id,
    title = EXCLUDED.title,
    url = EXCLUDED.url,
    external_id = EXCLUDED.external_id,
    fields = EXCLUDED.fields,
    evidence = EXCLUDED.evidence,
    confidence = EXCLUDED.confidence,
    parser_key = EXCLUDED.parser_key,
    parser_version = EXCLUDED.parser_version,
    last_seen = now(),
    last_run_id = EXCLUDED.last_run_id,
    gone_at = NULL
RETURNING (xmax = 0) AS inserted
