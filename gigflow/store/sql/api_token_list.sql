SELECT id, name, scopes, created_at, revoked_at FROM api_tokens ORDER BY name
