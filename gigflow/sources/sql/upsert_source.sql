-- A source's configuration and identity. Its status is set only when the source is new: a re-import keeps the
-- status (and its history) unless the file names a status (the caller records that change as an event).
INSERT INTO sources (id, configuration_id, company_id, url, status, parser_key)
VALUES (%(id)s, %(configuration_id)s, %(company_id)s, %(url)s, %(status)s, %(parser_key)s)
ON CONFLICT (id) DO UPDATE SET
    configuration_id = EXCLUDED.configuration_id,
    company_id = EXCLUDED.company_id,
    url = EXCLUDED.url,
    parser_key = EXCLUDED.parser_key,
    updated_at = now()
-- xmax is 0 on a row this statement inserted (PostgreSQL's usual upsert idiom)
RETURNING status, (xmax = 0) AS inserted
