-- The live token with this hash: its name and scopes.
SELECT name, scopes FROM api_tokens WHERE token_sha256 = %(token_sha256)s AND revoked_at IS NULL
