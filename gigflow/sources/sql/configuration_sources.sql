-- The sources that share one configuration (and so one noise filter), by id.
SELECT id FROM sources WHERE configuration_id = %(configuration_id)s ORDER BY id
