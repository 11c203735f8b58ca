"""Adaptive crawl frequency: a source whose content stays unchanged is crawled less often; a change brings
it back to the base rate. Each finished crawl sets the source's ``next_crawl_at``; ``scrapy schedule-due``
reads it. While it runs, a crawl holds its source's claim (``crawl_claims``), so no node schedules the source
again; it releases the claim in the same transaction that sets the next crawl time."""

from __future__ import annotations

import logging

from scrapy import signals

from gigflow.context import CrawlContext
from gigflow.db import get_pool
from gigflow.db.liveness import Liveness
from gigflow.pipelines.storage import EXIT_ALREADY_RUNNING
from gigflow.sql import load_sql

logger = logging.getLogger(__name__)
_SQL = "gigflow.scheduling"


def next_interval(unchanged_runs: int, base: float, slowdown_after: int, factor: float, cap: float) -> float:
    """Base interval until ``slowdown_after`` unchanged runs in a row, then multiplied by ``factor`` per further
    unchanged run, at most ``cap``."""
    steps = max(0, unchanged_runs - slowdown_after + 1)
    return min(cap, base * factor ** steps)


class AdaptiveScheduleExtension:
    """On spider close, count the run as changed (any new source version) or unchanged and set next_crawl_at.
    An incomplete run does not count; the source is simply due again after the base interval."""

    def __init__(self, crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.base = settings.getfloat("CRAWL_BASE_INTERVAL")
        self.slowdown_after = settings.getint("CRAWL_SLOWDOWN_AFTER_UNCHANGED_RUNS")
        self.factor = settings.getfloat("CRAWL_SLOWDOWN_FACTOR")
        self.cap = settings.getfloat("CRAWL_MAX_INTERVAL")
        self.claim_seconds = settings.getfloat("SCHEDULE_CLAIM_SECONDS")
        self.context = CrawlContext.from_crawler(crawler)

    @classmethod
    def from_crawler(cls, crawler):
        extension = cls(crawler)
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_opened(self, spider):
        source_id = self.context.source_id
        if source_id is None:
            return
        pool = get_pool()
        with pool.connection() as conn:  # held by this process: a kill frees the claim at once
            conn.execute(load_sql(_SQL, "hold_claims.sql"),
                         {"source_ids": [source_id], "claim_seconds": self.claim_seconds,
                          "holder_lock": Liveness.for_url(pool.conninfo).ensure()})

    def spider_closed(self, spider, reason):
        source_id = self.context.source_id
        if source_id is None or getattr(self.crawler, "gigflow_exitcode", 0) == EXIT_ALREADY_RUNNING:
            return  # the claim and the next crawl time belong to the crawl that is running
        stats = self.crawler.stats
        complete = reason == "finished" and not stats.get_value("gigflow/fetch_failures")
        with get_pool().connection() as conn, conn.transaction():
            if complete:
                changed = bool(stats.get_value("gigflow/versions_new"))
                row = conn.execute(load_sql(_SQL, "record_run_outcome.sql"),
                                   {"source_id": source_id, "changed": changed}).fetchone()
                seconds = next_interval(row["unchanged_runs"] if row else 0, self.base, self.slowdown_after,
                                        self.factor, self.cap)
            else:
                seconds = self.base
            conn.execute(load_sql(_SQL, "set_next_crawl.sql"), {"source_id": source_id, "seconds": seconds})
            conn.execute(load_sql(_SQL, "release_claim.sql"), {"source_id": source_id})
        stats.set_value("gigflow/next_crawl_in_s", seconds)
