DELETE FROM api_webhooks WHERE name = %(name)s RETURNING id
