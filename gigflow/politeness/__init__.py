"""Politeness and safe fetching shared by every crawl process: keys and policies, the PostgreSQL limiter,
Retry-After and backoff, the robots.txt cache, the URL guard and adaptive crawl frequency.

The downloader middlewares in ``gigflow.middlewares`` are thin Scrapy adapters over these modules.
"""
