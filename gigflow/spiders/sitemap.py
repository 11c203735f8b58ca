"""sitemap strategy: job URLs from sitemaps (configured, or announced by robots.txt). No card selector.

Sitemap indexes are followed up to ``SITEMAP_MAX_DEPTH``; gzip bodies are recognised by their magic bytes
(servers rarely label them); a URL whose ``lastmod`` is older than its stored version is not fetched again, and
its jobs count as seen. A run that finds no sitemap in a robots.txt copy older than SITEMAP_ROBOTS_REFRESH_SECONDS
reads robots.txt again (and refreshes the shared copy) before giving up.
"""

from __future__ import annotations

from datetime import datetime, timezone
from urllib.parse import urlsplit, urlunsplit

import scrapy
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots

from gigflow.middlewares.robots import refresh_robots_copy, robots_copy_is_old
from gigflow.politeness.keys import registrable_domain
from gigflow.spiders.base import SourceSpider

_GZIP_MAGIC = b"\x1f\x8b"
ROBOTS_REFRESHED = "gigflow_robots_refreshed"


def parse_lastmod(value: str | None) -> datetime | None:
    """W3C datetime (a date, or a date and time with or without offset); naive values are taken as UTC."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def robots_url(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/robots.txt", "", ""))


class SitemapSpider(SourceSpider):
    name = "sitemap"
    strategy_type = "sitemap"

    async def start(self):
        settings = self.crawler.settings
        self.max_depth = settings.getint("SITEMAP_MAX_DEPTH")
        self.max_job_urls = settings.getint("SITEMAP_MAX_JOB_URLS")
        self.skip_unmodified = settings.getbool("SITEMAP_SKIP_UNMODIFIED")
        self.job_urls: set[str] = set()
        self.stored_at = self._stored_fetch_times() if self.skip_unmodified else {}
        if self.strategy.use_robots:
            yield scrapy.Request(robots_url(self.record.config.canonical_url), callback=self.parse_robots,
                                 errback=self.on_fetch_error, meta={"handle_httpstatus_list": [404, 410]})
        for url in self.strategy.sitemap_urls:
            yield self.sitemap_request(url, depth=0)

    def _stored_fetch_times(self) -> dict[str, datetime]:
        return self.context.latest_fetch_times()

    def sitemap_request(self, url: str, depth: int) -> scrapy.Request:
        return scrapy.Request(url, callback=self.parse_sitemap, errback=self.on_fetch_error, cb_kwargs={"depth": depth})

    def parse_robots(self, response):
        if response.meta.get(ROBOTS_REFRESHED):
            self.store_robots_copy(response)
        found = list(sitemap_urls_from_robots(response.text, base_url=response.url)) if response.status == 200 else []
        if not found and not self.strategy.sitemap_urls and not response.meta.get(ROBOTS_REFRESHED) \
                and self.robots_copy_is_old(response.url):
            # No sitemap to go on, and the robots.txt read may be a day old: read it again before giving up.
            self.crawler.stats.inc_value("gigflow/robots_refreshed")
            yield scrapy.Request(response.url, callback=self.parse_robots, errback=self.on_fetch_error,
                                 dont_filter=True, meta={"dont_obey_robotstxt": True, ROBOTS_REFRESHED: True,
                                                         "handle_httpstatus_list": [404, 410]})
            return
        if response.status != 200:
            self.logger.info("no robots.txt at %s (%s)", response.url, response.status)
            return
        self.crawler.stats.inc_value("gigflow/sitemaps_from_robots", len(found))
        for url in found:
            yield self.sitemap_request(url, depth=0)

    def robots_copy_is_old(self, url: str) -> bool:
        """The shared robots.txt copy is older than SITEMAP_ROBOTS_REFRESH_SECONDS (or missing)."""
        parts = urlsplit(url)
        return robots_copy_is_old(self.context.pool, f"{parts.scheme}://{parts.netloc}",
                                  self.crawler.settings.getfloat("SITEMAP_ROBOTS_REFRESH_SECONDS"))

    def store_robots_copy(self, response) -> None:
        parts = urlsplit(response.url)
        refresh_robots_copy(self.context.pool, self.crawler.settings, f"{parts.scheme}://{parts.netloc}",
                            parts.hostname, response.status, response.text)

    def sitemap_body(self, response) -> bytes:
        body = response.body
        if body[:2] == _GZIP_MAGIC:
            body = gunzip(body, max_size=self.crawler.settings.getint("DOWNLOAD_MAXSIZE"))
        return body

    def parse_sitemap(self, response, depth: int):
        stats = self.crawler.stats
        try:
            sitemap = Sitemap(self.sitemap_body(response))
        except Exception as exc:  # a malformed sitemap is a warning and an incomplete run, never a crash
            self.mark_incomplete(f"unreadable sitemap {response.url}: {exc.__class__.__name__}: {exc}", "listing_unreadable")
            return
        stats.inc_value("gigflow/sitemaps")
        if sitemap.type == "sitemapindex":
            for entry in sitemap:
                if depth >= self.max_depth:
                    self.mark_incomplete(f"sitemap index deeper than SITEMAP_MAX_DEPTH={self.max_depth}", "cap_reached")
                    return
                yield self.sitemap_request(response.urljoin(entry["loc"]), depth=depth + 1)
        elif sitemap.type == "urlset":
            yield from self.job_entries(response, sitemap)
        else:
            self.mark_incomplete(f"{response.url} is not a sitemap (root element {sitemap.type!r})", "content_type")

    def job_entries(self, response, sitemap):
        stats = self.crawler.stats
        domain = registrable_domain(response.url)
        for entry in sitemap:
            url = response.urljoin(entry["loc"])
            if url in self.job_urls or not self.matches(url, self.strategy.job_url_patterns, self.strategy.exclude_patterns):
                continue
            if registrable_domain(url) != domain:  # the sitemap protocol: a sitemap lists its own site only
                stats.inc_value("gigflow/sitemap_foreign_urls")
                continue
            if len(self.job_urls) >= self.max_job_urls:
                self.mark_incomplete(f"more job URLs than SITEMAP_MAX_JOB_URLS={self.max_job_urls}", "cap_reached")
                return
            self.job_urls.add(url)
            stats.inc_value("gigflow/job_links")
            lastmod, stored_at = parse_lastmod(entry.get("lastmod")), self.stored_at.get(url)
            if lastmod and stored_at and stored_at >= lastmod:
                item = self.stored_page_item(url, f"lastmod {entry['lastmod']}")
                yield item if item is not None else self.job_request(url)
            else:
                yield self.job_request(url)

    def closed(self, reason):
        if reason == "finished" and not self.job_urls and not self.context.run.incomplete_code:
            # No sitemap, or none that lists a job URL: more likely a broken setup than an empty company.
            self.mark_incomplete("no job URL found in any sitemap", "empty_listing")
