"""robots.txt through protego, cached in PostgreSQL per origin and shared by every process (replaces Scrapy's
RobotsTxtMiddleware). A Crawl-delay is stored with the file and raises the politeness key's interval."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request, TextResponse
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.httpobj import urlparse_cached

from protego import Protego
from psycopg_pool import ConnectionPool

from gigflow.crawler_parts import shared_waits
from gigflow.db import pool_from_crawler
from gigflow.politeness import queries as politeness
from gigflow.politeness.keys import Policies

logger = logging.getLogger(__name__)



@dataclass(frozen=True)
class RobotsRecord:
    origin: str
    http_status: int
    body: str

    def parser(self) -> Protego | None:
        """RFC 9309: a 4xx file allows everything (None); a readable 2xx file is parsed."""
        if 400 <= self.http_status < 500:
            return None
        return Protego.parse(self.body)


def lookup_robots(pool: ConnectionPool, origin: str, ttl: float) -> RobotsRecord | None:
    """The shared copy (politeness owns the robots_cache table), unless older than ``ttl`` seconds."""
    with pool.connection() as conn:
        cached = politeness.get_robots(conn, origin, ttl)
    return RobotsRecord(cached.origin, cached.http_status, cached.body) if cached else None


def store_robots(pool: ConnectionPool, record: RobotsRecord, politeness_key: str, crawl_delay: float | None) -> None:
    with pool.connection() as conn:
        politeness.put_robots(conn, origin=record.origin, politeness_key=politeness_key,
                              http_status=record.http_status, body=record.body, crawl_delay=crawl_delay)


def robots_copy_is_old(pool: ConnectionPool, origin: str, max_age: float) -> bool:
    """The shared copy of an origin's robots.txt is older than ``max_age`` seconds (or missing)."""
    return lookup_robots(pool, origin, max_age) is None


def refresh_robots_copy(pool: ConnectionPool, settings, origin: str, hostname: str, http_status: int,
                        text: str) -> None:
    """A robots.txt read again replaces the shared copy, so other crawls see it too."""
    record = RobotsRecord(origin, http_status, text if http_status < 300 else "")
    parser = record.parser()
    delay = parser.crawl_delay(settings.get("USER_AGENT")) if parser is not None else None
    store_robots(pool, record, Policies.from_settings(settings).for_host(hostname).key,
                 min(float(delay), settings.getfloat("ROBOTS_MAX_CRAWL_DELAY")) if delay else None)


class RobotsDisallowed(IgnoreRequest):
    """Forbidden by robots.txt: a policy block, never retried."""


class SharedRobotsMiddleware:
    DOWNLOAD_PRIORITY = 1000

    def __init__(self, crawler, pool: ConnectionPool):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.user_agent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT")
        self.ttl = settings.getfloat("ROBOTS_CACHE_TTL")
        self.max_crawl_delay = settings.getfloat("ROBOTS_MAX_CRAWL_DELAY")
        self.policies = Policies.from_settings(settings)
        self.pool = pool
        self._parsers: dict[str, tuple[float, object]] = {}  # origin -> (loaded at, parser or None)
        self._records: dict[str, RobotsRecord] = {}  # origin -> the robots.txt behind its parser
        # Origins whose robots.txt is being read in this event loop: the crawls of one process (a batch runs
        # several) wait for that one reading instead of each spending a politeness slot on the same file.
        self.reading = shared_waits(crawler).robots_readings

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        return cls(crawler, pool_from_crawler(crawler))

    async def process_request(self, request, spider=None):
        if request.meta.get("dont_obey_robotstxt"):
            return None
        parts = urlparse_cached(request)
        if parts.scheme not in ("http", "https"):
            return None
        origin = f"{parts.scheme}://{parts.netloc}"
        parser = await self._parser(origin, parts.hostname or "")
        if parts.path == "/robots.txt" and origin in self._records:
            # A spider reading robots.txt itself (sitemap lines) gets the shared copy: no second download.
            record = self._records[origin]
            self.stats.inc_value("gigflow/robots/served_from_cache")
            return TextResponse(request.url, status=record.http_status, body=record.body.encode("utf-8"),
                                encoding="utf-8", request=request)
        if parser is not None and not parser.can_fetch(request.url, self.user_agent):
            self.stats.inc_value("robotstxt/forbidden")
            raise RobotsDisallowed(f"Forbidden by robots.txt: {request.url}")
        return None

    async def _parser(self, origin: str, host: str):
        cached = self._parsers.get(origin)
        if cached and time.monotonic() - cached[0] < self.ttl:
            return cached[1]
        reading = self.reading
        while origin in reading:  # then the shared copy is in the database (or the reading failed: read it here)
            await asyncio.shield(reading[origin])
            cached = self._parsers.get(origin)
            if cached and time.monotonic() - cached[0] < self.ttl:
                return cached[1]
        future = asyncio.get_running_loop().create_future()
        reading[origin] = future
        parser = None
        try:
            record = lookup_robots(self.pool, origin, self.ttl)
            if record is None:
                record = await self._fetch(origin, host)
            else:
                self.stats.inc_value("gigflow/robots/cache_hits")
            parser = record.parser() if record else None
            self._parsers[origin] = (time.monotonic(), parser)
            if record is not None:
                self._records[origin] = record
        except Exception as exc:  # a malformed robots.txt never crashes a crawl: no rules then
            logger.warning("robots.txt for %s unreadable: %s", origin, exc)
        finally:
            future.set_result(parser)
            del reading[origin]
        return parser

    async def _fetch(self, origin: str, host: str) -> RobotsRecord | None:
        request = Request(f"{origin}/robots.txt", priority=self.DOWNLOAD_PRIORITY, callback=NO_CALLBACK,
                          meta={"dont_obey_robotstxt": True})
        try:
            response = await self.crawler.engine.download_async(request)
        except IgnoreRequest as exc:
            logger.info("robots.txt for %s not fetched: %s", origin, exc)
            return None
        except Exception as exc:  # unreachable: like Scrapy, crawl without rules; the page fetch fails anyway
            logger.warning("robots.txt for %s failed: %s", origin, exc)
            return None
        self.stats.inc_value("robotstxt/request_count")
        if response.status >= 500:
            # RFC 9309: a server error means assume everything is disallowed; not cached, asked again next run.
            return RobotsRecord(origin, response.status, "User-agent: *\nDisallow: /\n")
        body = response.body.decode("utf-8", errors="replace") if response.status < 300 else ""
        record = RobotsRecord(origin, response.status, body)
        parser = record.parser()
        delay = parser.crawl_delay(self.user_agent) if parser is not None else None
        if delay is not None:
            delay = min(float(delay), self.max_crawl_delay)
            self.stats.set_value(f"gigflow/robots/crawl_delay/{host}", delay)
        store_robots(self.pool, record, self.policies.for_host(host).key, delay)
        return record
