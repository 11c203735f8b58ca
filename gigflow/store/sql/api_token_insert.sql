-- A new API token (only its sha256 is kept); None when the name is taken.
INSERT INTO api_tokens (name, token_sha256, scopes) VALUES (%(name)s, %(token_sha256)s, %(scopes)s)
ON CONFLICT (name) DO NOTHING
RETURNING id, name, scopes, created_at
