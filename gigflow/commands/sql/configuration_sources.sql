-- The sources of one configuration and their statuses (why a noise review found no sample).
SELECT id, status FROM sources WHERE configuration_id = %(configuration_id)s ORDER BY id
