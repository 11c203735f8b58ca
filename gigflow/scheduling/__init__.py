"""When sources are crawled: adaptive ``next_crawl_at`` (an extension), claims of due sources, the scrapyd client
that schedules them and the egg deploy."""
