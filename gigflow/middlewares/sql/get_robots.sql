SELECT origin, http_status, body, crawl_delay, fetched_at FROM robots_cache
WHERE origin = %(origin)s AND fetched_at > now() - make_interval(secs => %(ttl)s)
