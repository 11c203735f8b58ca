"""A lost database, seen from a crawl: since when its calls fail, and the crawl stopped cleanly (its run
``incomplete:database``, never blamed on the site) once the outage lasts DATABASE_OUTAGE_SECONDS."""

from __future__ import annotations

import logging
import threading
import time

import psycopg
from psycopg_pool import PoolTimeout
from scrapy.exceptions import IgnoreRequest

from gigflow.crawler_parts import DATABASE_OUTAGE, crawler_part
from gigflow.db.connection import DatabaseUnavailable

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout, DatabaseUnavailable)
INCOMPLETE_DATABASE = "database"  # the run's outcome: incomplete:database


class DatabaseLost(IgnoreRequest):
    """A request dropped because the crawl is stopping for a lost database (not the site's fault)."""


def is_database_error(exc: BaseException | None) -> bool:
    """An error that says the database cannot be reached (not a bad query, not the site)."""
    return isinstance(exc, (*DATABASE_ERRORS, DatabaseLost))


class DatabaseOutage:
    """One per crawler (``for_crawler``, kept on it: gigflow.crawler_parts): every component that calls the
    database reports failures and successes here; the first failure starts the clock, a success stops it, and a
    clock past the limit closes the spider with reason ``database``."""

    def __init__(self, crawler, limit_seconds: float):
        self.crawler = crawler
        self.limit = limit_seconds
        self.since: float | None = None
        self.closing = False
        self._mutex = threading.Lock()

    @classmethod
    def for_crawler(cls, crawler) -> "DatabaseOutage":
        return crawler_part(crawler, DATABASE_OUTAGE,
                            lambda: cls(crawler, crawler.settings.getfloat("DATABASE_OUTAGE_SECONDS")))

    @property
    def seconds(self) -> float:
        return 0.0 if self.since is None else time.monotonic() - self.since

    def failed(self, exc: BaseException) -> None:
        with self._mutex:
            if self.since is None:
                self.since = time.monotonic()
                logger.warning("the database cannot be reached (%s); the crawl stops if it stays away %.0f s",
                               " ".join(str(exc).split()) or type(exc).__name__, self.limit)
                self.crawler.stats.inc_value("gigflow/database_outages")
        self.check()

    def succeeded(self) -> None:
        if self.since is not None:
            with self._mutex:
                if self.since is not None:
                    logger.info("the database is back after %.1f s", time.monotonic() - self.since)
                    self.since = None

    def check(self) -> bool:
        """Close the crawl when the outage has lasted past the limit; True once it is closing."""
        if self.closing or self.since is None or self.seconds < self.limit:
            return self.closing
        self.closing = True
        logger.error("the database has been unreachable for %.0f s (DATABASE_OUTAGE_SECONDS=%g): stopping the crawl; "
                     "its run will be recorded as incomplete:database", self.seconds, self.limit)
        from twisted.internet import reactor

        def close():
            from scrapy.utils.defer import deferred_from_coro

            engine = self.crawler.engine
            if engine is not None and engine.spider is not None:
                deferred_from_coro(engine.close_spider_async(reason=INCOMPLETE_DATABASE))

        if threading.current_thread() is threading.main_thread():
            reactor.callLater(0, close)
        else:
            reactor.callFromThread(close)
        return True
