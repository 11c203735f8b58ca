INSERT INTO crawl_runs (source_id, spider) VALUES (%(source_id)s, %(spider)s) RETURNING id
