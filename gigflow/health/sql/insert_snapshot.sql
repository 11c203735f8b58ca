INSERT INTO listing_snapshots (source_id, run_id, url, sha256, content_type, body)
VALUES (%(source_id)s, %(run_id)s, %(url)s, %(sha256)s, %(content_type)s, %(body)s)
