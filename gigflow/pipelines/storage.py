"""Store source versions (content-addressed) and upsert jobs by canonical key, within the crawl run
(gigflow.runs: its lock, its record and its finalizer)."""

from __future__ import annotations

import logging
from dataclasses import asdict

import psycopg
from psycopg.types.json import Jsonb
from scrapy import signals
from scrapy.exceptions import DropItem

from gigflow import keys
from gigflow.context import CrawlContext
from gigflow.db import pool_from_crawler
from gigflow.db.outage import INCOMPLETE_DATABASE, DatabaseOutage, is_database_error
from gigflow.paths import markdown_path
from gigflow.store.job_writer import JobWriter
from gigflow.store.storable import storable_item
from gigflow.runs.finalize import CrawlRun
from gigflow.safety.guard import redact_url
from gigflow.store import versions

logger = logging.getLogger(__name__)

def connection_cut(exc: psycopg.OperationalError) -> bool:
    """The connection itself was lost (no SQLSTATE: the server closed it; 08: connection exception; 57P: a
    shutdown or restart), not the statement (57014 is a cancelled query, for instance)."""
    state = exc.sqlstate
    return state is None or state.startswith(("08", "57P"))


# Seconds a page's second try waits for a fresh connection (a database that is really away: the outage logic next).
RETRY_CONNECTION_WAIT = 2.0


class StoragePipeline:
    def __init__(self, crawler, markdown_dir: str, run: CrawlRun, pool):
        self.crawler = crawler
        self.stats = crawler.stats
        self.context = CrawlContext.from_crawler(crawler)  # the run's source, opened by its spider
        self.outage = DatabaseOutage.for_crawler(crawler)
        self.markdown_dir = markdown_dir
        self.run = run
        self.pool = pool
        self.writer: JobWriter | None = None

    @classmethod
    def from_crawler(cls, crawler):
        context = CrawlContext.from_crawler(crawler)
        pool = pool_from_crawler(crawler)
        pipeline = cls(crawler, crawler.settings.get("MARKDOWN_DIR", ""), CrawlRun.from_crawler(crawler, context, pool),
                       pool)
        # spider_closed, not close_spider: only the signal carries the finish reason.
        crawler.signals.connect(pipeline.spider_closed, signal=signals.spider_closed)
        # A callback or a store that raised lost part of the run: it must not mark jobs gone.
        crawler.signals.connect(pipeline.spider_error, signal=signals.spider_error)
        crawler.signals.connect(pipeline.item_error, signal=signals.item_error)
        return pipeline

    def open_spider(self, spider=None):
        run_id = self.run.start()  # the crawl lock and the run's row; refused while the source is being crawled
        self.writer = JobWriter(run_id)
        for key in (keys.VERSIONS_NEW, keys.VERSIONS_UNCHANGED, keys.JOBS_NEW, keys.JOBS_UPDATED, keys.JOBS_GONE,
                    keys.WARNINGS):
            self.stats.set_value(key, 0)

    async def spider_closed(self, spider, reason):
        """Finalize the run (gigflow.runs.finalize); Scrapy waits for the coroutine before it closes the crawl."""
        await self.run.close(spider, reason)

    def spider_error(self, failure, response, spider):
        self.context.mark_incomplete(f"callback for {response.url} raised {failure.value!r}", "callback_error")

    def item_error(self, item, response, spider, failure):
        if is_database_error(failure.value):  # the database's fault, not the page's
            self.outage.failed(failure.value)
            self.context.mark_incomplete(f"storing {item.get('url')} failed: the database cannot be reached",
                                         INCOMPLETE_DATABASE)
            return
        self.context.mark_incomplete(f"storing {item.get('url')} failed: {failure.value!r}", "store_failed")

    def process_item(self, item, spider=None):
        repairs = storable_item(item)
        if repairs:
            self.stats.inc_value(keys.FIELDS_UNSTORABLE, len(repairs))
            logger.warning("%s: %s", redact_url(str(item.get("url"))), "; ".join(repairs)[:500])
            item["warnings"] = list(item.get("warnings") or []) + repairs
        try:
            return self._store_once_more_if_cut(item)
        except Exception as exc:
            # One line, never the item (its Markdown, jobs and raw payload): Scrapy would log all of it.
            message = f"storing {redact_url(str(item.get('url')))} failed: {type(exc).__name__}: {str(exc)[:300]}"
            logger.error(message)
            if is_database_error(exc):  # the database's fault, not the page's: the outage logic takes over
                self.outage.failed(exc)
                self.context.mark_incomplete(f"storing {redact_url(str(item.get('url')))} failed: the database "
                                             "cannot be reached", INCOMPLETE_DATABASE)
            else:
                self.context.mark_incomplete(message, "store_failed")
            raise DropItem(message) from None

    def _store_once_more_if_cut(self, item):
        """Store the page; where its connection was cut mid-transaction (a restart, a failover: the transaction
        rolled back whole) and no outage is known yet, once more on a fresh connection instead of losing the page
        to the run. A database still away fails the second try too, and the outage logic takes over."""
        try:
            return self._store(item)
        except psycopg.OperationalError as exc:
            if self.outage.since is not None or not connection_cut(exc):
                raise
            logger.warning("storing %s: the database connection was cut (%s); storing it again",
                           redact_url(str(item.get("url"))), " ".join(str(exc).split())[:200])
            return self._store(item, wait=RETRY_CONNECTION_WAIT)

    def _store(self, item, wait: float | None = None):
        body = item.get("body")
        # While the database is known to be away, a short wait: the reactor is not held for a whole pool timeout
        # per item (the item is lost to this run, which is then incomplete:database).
        wait = 0.5 if self.outage.since is not None else wait
        counted: list[str] = []  # counted once the page's transaction commits (a retried store counts once)
        with self.pool.connection(timeout=wait) as conn, conn.transaction():
            if item.get("not_fetched"):  # the stored version stands for the page: nothing to store
                version_id = item["source_version_id"]
                item["version_status"] = "unchanged"
                counted.append(keys.PAGES_SKIPPED_UNCHANGED)
            else:
                version_id = self._store_version(conn, item, body, counted)
            counts = self.writer.write_page(
                conn, source_id=item["source_id"], page_url=item["url"], jobs=item.get("jobs") or [],
                version_id=version_id, parser_key=item["parser_key"], parser_version=item["parser_version"],
                confidence=item["confidence"])
            if item.get("markdown") is None and item.get("version_status") == "unchanged":
                # A page answered 304 (or replayed): the export carries the stored version's Markdown.
                previous = versions.version_summary(conn, version_id)
                item.update({k: v for k, v in (asdict(previous) if previous else {}).items()
                             if v is not None and k != "content_type"})
        for key in counted:
            self.stats.inc_value(key)
        self.stats.inc_value(keys.JOBS_NEW, counts["new"])
        self.stats.inc_value(keys.JOBS_UNCHANGED if item.get("not_fetched") else keys.JOBS_UPDATED,
                             counts["seen"])
        for name in ("changed", "revived", "reextracted"):
            if counts[name]:
                self.stats.inc_value(f"gigflow/jobs_{name}", counts[name])
        item["warnings"] = list(item.get("warnings") or []) + counts["warnings"]
        self.stats.inc_value(keys.WARNINGS, len(item["warnings"]))
        if (item.get("preparation") or {}).get("review_requested"):
            self.stats.inc_value(keys.NOISE_REVIEW_REQUESTED)
        item.pop("body", None)  # stored; exporters get the sha256 instead of raw bytes
        return item

    def _store_version(self, conn, item, body: bytes, counted: list[str]) -> int:
        params = {key: item.get(key) for key in ("source_id", "url", "http_status", "content_type", "etag",
                                                 "last_modified", "sha256", "size", "markdown")}
        params["body"] = body
        params["preparation"] = Jsonb(item.get("preparation")) if item.get("preparation") is not None else None
        params["jobs_digest"] = versions.jobs_digest(item.get("jobs") or [])
        stored = versions.store_fetch(conn, params)
        version_id = stored.id
        if stored.status == "new":
            item["version_status"] = "new"
            counted.append(keys.VERSIONS_NEW)
        else:  # same bytes, or bytes whose Markdown and jobs are the stored version's (volatile parts only)
            item["version_status"] = "unchanged"
            counted.append(keys.VERSIONS_UNCHANGED)
            if stored.status != "unchanged":
                counted.append(f"gigflow/versions_{stored.status}")
        item["source_version_id"] = version_id
        path = markdown_path(self.markdown_dir, item["source_id"], stored.sha256)
        if path and item.get("markdown") is not None:
            if stored.status in ("new", "reprepared") or not path.exists():  # else the file is current
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(item["markdown"], encoding="utf-8")
            item["markdown_path"] = str(path)
        return version_id
