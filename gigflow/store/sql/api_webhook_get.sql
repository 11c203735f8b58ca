SELECT id, name, url, secret, position, failures FROM api_webhooks WHERE name = %(name)s
