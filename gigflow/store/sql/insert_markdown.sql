-- Prepared Markdown is stored once, whatever version (of whatever source) it was prepared for.
INSERT INTO markdowns (sha256, markdown) VALUES (%(markdown_sha256)s, %(markdown)s)
ON CONFLICT (sha256) DO NOTHING
