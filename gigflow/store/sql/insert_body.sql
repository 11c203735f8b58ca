-- A raw body is stored once, whatever source or URL fetched it.
INSERT INTO bodies (sha256, size, body) VALUES (%(sha256)s, %(size)s, %(body)s)
ON CONFLICT (sha256) DO NOTHING
