-- One stored version of a configuration's source, for the noise review page (never another configuration's).
SELECT v.id, v.source_id, v.url, v.content_type, v.body, v.fetched_at
FROM source_versions v
JOIN sources s ON s.id = v.source_id
WHERE v.id = %(version_id)s AND s.configuration_id = %(configuration_id)s
