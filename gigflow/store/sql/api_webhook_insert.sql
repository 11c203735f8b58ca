INSERT INTO api_webhooks (name, url, secret, position) VALUES (%(name)s, %(url)s, %(secret)s, %(position)s)
ON CONFLICT (name) DO NOTHING
RETURNING id
