-- The stored job under this source's key, locked for the upsert that compares it.
SELECT id, title, url, external_id, fields, parser_version, gone_at
FROM jobs WHERE source_id = %(source_id)s AND canonical_key = %(canonical_key)s
FOR UPDATE
