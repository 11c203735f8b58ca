UPDATE api_tokens SET revoked_at = now() WHERE name = %(name)s AND revoked_at IS NULL RETURNING id
