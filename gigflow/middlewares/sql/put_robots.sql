INSERT INTO robots_cache (origin, politeness_key, http_status, body, crawl_delay, fetched_at)
VALUES (%(origin)s, %(politeness_key)s, %(http_status)s, %(body)s, %(crawl_delay)s, now())
ON CONFLICT (origin) DO UPDATE SET
    politeness_key = EXCLUDED.politeness_key,
    http_status = EXCLUDED.http_status,
    body = EXCLUDED.body,
    crawl_delay = EXCLUDED.crawl_delay,
    fetched_at = EXCLUDED.fetched_at
