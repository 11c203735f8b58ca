INSERT INTO sources (id, configuration_id, company_id, url, status, parser_key)
VALUES (%(id)s, %(configuration_id)s, %(company_id)s, %(url)s, %(status)s, %(parser_key)s)
ON CONFLICT (id) DO UPDATE SET
    configuration_id = EXCLUDED.configuration_id,
    company_id = EXCLUDED.company_id,
    url = EXCLUDED.url,
    status = EXCLUDED.status,
    parser_key = EXCLUDED.parser_key,
    updated_at = now()
