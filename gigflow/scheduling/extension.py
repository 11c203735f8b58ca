"""A crawl holds its source's claim (``crawl_claims``) while it runs, so no node schedules the source again. The
claim is released in the run's finalizing transaction, the one that sets the source's next crawl time
(gigflow.runs.finalize; the adaptive interval itself is ``gigflow.runs.decide.next_crawl``): ``scrapy
schedule-due`` never sees a free claim beside the old time."""

from __future__ import annotations

import logging

from scrapy import signals

from gigflow.context import CrawlContext
from gigflow.db import pool_from_crawler
from gigflow.db.liveness import Liveness
from gigflow.runs.ledger import run_ledger
from gigflow.scheduling import claims

logger = logging.getLogger(__name__)


class AdaptiveScheduleExtension:
    """On spider open, hold the source's claim; the run's finalizer calls ``release_claim`` in its transaction."""

    def __init__(self, crawler, pool):
        self.crawler = crawler
        self.pool = pool
        self.claim_seconds = crawler.settings.getfloat("SCHEDULE_CLAIM_SECONDS")
        self.context = CrawlContext.from_crawler(crawler)

    @classmethod
    def from_crawler(cls, crawler):
        extension = cls(crawler, pool_from_crawler(crawler))
        crawler.signals.connect(extension.spider_opened, signal=signals.spider_opened)
        run_ledger(crawler).add_recorder(extension.release_claim)
        return extension

    def spider_opened(self, spider):
        source_id = self.context.source_id
        if source_id is None:
            return
        with self.pool.connection() as conn:  # held by this process: a kill frees the claim at once
            claims.hold_claims(conn, [source_id], self.claim_seconds, Liveness.for_url(self.pool.conninfo).ensure())

    def release_claim(self, conn, ledger, decision) -> None:
        """The run is recorded: its source is free to be scheduled again (at the next crawl time set beside)."""
        claims.release_claim(conn, self.context.source_id)
