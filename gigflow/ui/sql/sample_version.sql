-- One stored version of a configuration's source, for the noise review page (never another configuration's).
SELECT v.id, v.source_id, v.url, v.content_type, b.body, v.fetched_at
FROM source_versions v
JOIN bodies b ON b.sha256 = v.sha256
JOIN sources s ON s.id = v.source_id
WHERE v.id = %(version_id)s AND s.configuration_id = %(configuration_id)s
