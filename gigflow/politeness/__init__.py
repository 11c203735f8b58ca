"""Politeness shared by every crawl process: keys and policies, the PostgreSQL limiter, Retry-After and backoff,
and the HTTP transport that never re-sends silently. ``queries`` owns the tables (keys, leases, and the shared
robots.txt cache whose Crawl-delay lengthens a key's interval). The fetch guard is ``gigflow.safety``, reading
robots.txt is ``gigflow.middlewares.robots`` and crawl scheduling is ``gigflow.scheduling``.

The downloader middlewares in ``gigflow.middlewares`` are thin Scrapy adapters over these modules.
"""
