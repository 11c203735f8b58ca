UPDATE sources SET next_crawl_at = now() + make_interval(secs => %(seconds)s), updated_at = now()
WHERE id = %(source_id)s
RETURNING next_crawl_at
