"""The crawl context: what one run reads once and its spider, middlewares and pipelines share.

Built with ``from_crawler`` (one per crawler, kept on it: gigflow.crawler_parts). The spider opens it
with its source when it is created, before Scrapy builds the middlewares and pipelines, so they read the source,
its configuration, strategy and noise filter here, never off the spider. Stored-version lookups go through
``gigflow.store`` with the run's source.
"""

from __future__ import annotations

import logging
from functools import cached_property

from gigflow import keys
from gigflow.crawler_parts import CRAWL_CONTEXT, crawler_part
from gigflow.db import pool_from_crawler
from gigflow.noise.current import DEFAULT_MAX_BYTES, get_current_noise_filter
from gigflow.runs.ledger import RunLedger, run_ledger
from gigflow.safety.guard import redact_url
from gigflow.sources.config import SourceStatus
from gigflow.sources.repository import SourceRecord, get_source, set_status
from gigflow.store import versions

logger = logging.getLogger(__name__)


class CrawlContext:
    def __init__(self, crawler):
        self.crawler = crawler
        self.source_id: str | None = None
        self.spider_name: str | None = None
        self.strategy_type: str = ""
        self.record: SourceRecord | None = None
        self.strategy = None
        self.noise_filter = None
        # False for runs whose inputs are not listings (a mailbox): a job missing from them is not gone.
        self.marks_gone = True

    @classmethod
    def from_crawler(cls, crawler) -> "CrawlContext":
        """The crawler's one context: every component that asks gets the same one."""
        return crawler_part(crawler, CRAWL_CONTEXT, lambda: cls(crawler))

    @cached_property
    def pool(self):
        """The run's database pool (the DATABASE_URL setting's), taken on first use and kept: every component
        of the run reaches the database through the same one."""
        return pool_from_crawler(self.crawler)

    # -- opening: once per run ---------------------------------------------------------------------------------

    def open(self, source_id: str, *, strategy_type: str, spider_name: str, marks_gone: bool = True) -> None:
        """Load the source (UnknownSourceError when there is none), its strategy and its current noise filter."""
        self.attach(get_source(self.pool, source_id), strategy_type=strategy_type, spider_name=spider_name,
                    marks_gone=marks_gone)

    def attach(self, record: SourceRecord, *, strategy_type: str, spider_name: str, marks_gone: bool = True,
               noise_filter=None) -> None:
        """Use an already loaded source. Its noise filter is read from the stored configuration (used only while
        its config hash is the configuration's) unless one is given."""
        self.record = record
        self.source_id = record.config.id
        self.spider_name = spider_name
        self.strategy_type = strategy_type
        self.marks_gone = marks_gone
        self.noise_filter = noise_filter if noise_filter is not None else get_current_noise_filter(
            record.stored_config, record.config_hash,
            self.crawler.settings.getint("NOISE_FILTER_MAX_BYTES", DEFAULT_MAX_BYTES))
        self.strategy = record.config.strategy(strategy_type)
        if self.strategy is None:
            raise ValueError(f"source {record.config.id!r} has no {strategy_type!r} strategy")

    @property
    def stats(self):
        return self.crawler.stats  # set once the crawl starts, after the spider opened this context

    @property
    def run(self) -> RunLedger:
        """The run's ledger (gigflow.runs.ledger): its state, which the finalizer decides its outcome from."""
        return run_ledger(self.crawler)

    @property
    def configuration_id(self) -> int | None:
        return self.record.configuration_id if self.record else None

    @property
    def noise_fingerprint(self) -> str | None:
        """What the stored Markdown must have been prepared with for a 304 to stand for it."""
        return self.noise_filter.fingerprint() if self.noise_filter is not None else None

    # -- the run's state ---------------------------------------------------------------------------------------

    def mark_incomplete(self, reason: str, code: str = "partial_listing") -> None:
        """This run saw only part of its input: no job is marked gone. The first ``code`` becomes the run's
        outcome, ``incomplete:<code>``; ``reason`` goes to the log."""
        self.run.mark_incomplete(code)
        self.stats.inc_value(keys.INCOMPLETE)  # the report: how many times
        logger.warning("run incomplete (%s): %s", code, reason)

    def quarantine(self, reason: str) -> None:
        """Mark the source quarantined in the database and refuse its remaining requests in this run."""
        reason = redact_url(reason)
        self.run.quarantined = reason
        self.stats.set_value(keys.QUARANTINED, reason)  # the report
        if self.source_id:
            set_status(self.pool, self.source_id, SourceStatus.quarantined, reason)
        logger.error("source %s quarantined: %s", self.source_id, reason)

    def quarantined(self) -> str | None:
        """Why this run's requests are refused: quarantined during the run or before it; None when not."""
        if self.run.quarantined:
            return self.run.quarantined
        if (self.record is not None and self.record.config.status == SourceStatus.quarantined
                and not self.crawler.settings.getbool("CRAWL_FORCE")):  # `scrapy crawl --force`: a person's try
            return "quarantined before this run"
        return None

    # -- stored versions of this source ------------------------------------------------------------------------

    def latest_validators(self, url: str) -> dict | None:
        with self.pool.connection() as conn:
            return versions.latest_validators(conn, self.source_id, url)

    def stored_body(self, version_id: int) -> dict | None:
        with self.pool.connection() as conn:
            return versions.stored_body(conn, self.source_id, version_id)

    def latest_version(self, url: str) -> dict | None:
        with self.pool.connection() as conn:
            return versions.latest_version(conn, self.source_id, url)

    def latest_fetch_times(self) -> dict:
        with self.pool.connection() as conn:
            return {row.url: row.fetched_at for row in versions.latest_fetch_times(conn, self.source_id)}

    def stored_messages(self, content_type: str) -> list[dict]:
        with self.pool.connection() as conn:
            return versions.stored_messages(conn, self.source_id, content_type)
