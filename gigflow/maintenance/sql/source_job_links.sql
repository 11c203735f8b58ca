-- Every live job of one source with what its exact identity keys are built from (to find keys it shares).
SELECT j.id, j.title, j.url, j.external_id, j.parser_key, j.fields->>'apply_url' AS apply_url,
       j.fields->>'location' AS location
FROM jobs j
WHERE j.source_id = %(source_id)s AND j.gone_at IS NULL
