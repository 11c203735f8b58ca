SELECT id, name, url, position, failures, last_error, last_delivered_at, created_at FROM api_webhooks ORDER BY name
