-- A job first seen. A concurrent insert of the same key (another strategy of the source) returns no row.
INSERT INTO jobs (canonical_key, source_id, source_version_id, title, url, external_id, fields, evidence,
                  confidence, parser_key, parser_version, last_run_id)
VALUES (%(canonical_key)s, %(source_id)s, %(source_version_id)s, %(title)s, %(url)s, %(external_id)s, %(fields)s,
        %(evidence)s, %(confidence)s, %(parser_key)s, %(parser_version)s, %(run_id)s)
ON CONFLICT (source_id, canonical_key) DO NOTHING
RETURNING id
