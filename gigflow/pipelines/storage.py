"""Store source versions (content-addressed), upsert jobs by canonical key, record the crawl run."""

from __future__ import annotations

import logging

from psycopg.types.json import Jsonb
from scrapy import signals
from scrapy.exceptions import CloseSpider, DropItem
from twisted.internet import task

from gigflow.context import INCOMPLETE_REASON, CrawlContext
from gigflow.db import get_pool
from gigflow.paths import markdown_path
from gigflow.safety.guard import redact_url
from gigflow.pipelines.jobs import JobWriter
from gigflow.pipelines.storable import storable_item
from gigflow.pipelines.runs import CrawlLock, abandon_dead_runs, describe_run, owner
from gigflow.signals import run_outcome_pending, source_finalized
from gigflow.sql import load_sql
from gigflow.store import jobs, versions

logger = logging.getLogger(__name__)
_SQL = "gigflow.pipelines"
LISTING_LINKS = "gigflow/listing_links/"  # + listing URL: job links the listing's first page yielded
# Exit codes of `scrapy crawl` (gigflow.commands.crawl) beyond Scrapy's own 1 for a crawl that failed to start.
EXIT_FINALIZATION_FAILED = 1
EXIT_ALREADY_RUNNING = 3
EXIT_NOTHING_READ = 4  # the run read no page at all: every listing request was refused or failed


class StoragePipeline:
    def __init__(self, crawler, markdown_dir: str, heartbeat_seconds: float):
        self.crawler = crawler
        self.stats = crawler.stats
        self.context = CrawlContext.from_crawler(crawler)  # the run's source, opened by its spider
        self.markdown_dir = markdown_dir
        self.heartbeat_seconds = heartbeat_seconds
        self.pool = None
        self.run_id: int | None = None
        self.lock: CrawlLock | None = None
        self.heartbeat: task.LoopingCall | None = None
        self.writer: JobWriter | None = None

    @classmethod
    def from_crawler(cls, crawler):
        pipeline = cls(crawler, crawler.settings.get("MARKDOWN_DIR", ""),
                       crawler.settings.getfloat("CRAWL_HEARTBEAT_SECONDS"))
        # spider_closed, not close_spider: only the signal carries the finish reason.
        crawler.signals.connect(pipeline.spider_closed, signal=signals.spider_closed)
        # A callback or a store that raised lost part of the run: it must not mark jobs gone.
        crawler.signals.connect(pipeline.spider_error, signal=signals.spider_error)
        crawler.signals.connect(pipeline.item_error, signal=signals.item_error)
        return pipeline

    def open_spider(self, spider=None):
        source_id, spider_name = self.context.source_id, self.context.spider_name
        self.pool = get_pool()
        lock = CrawlLock(source_id, spider_name)
        if not lock.acquire():
            with self.pool.connection() as conn:
                holder = conn.execute(load_sql(_SQL, "running_run.sql"),
                                      {"source_id": source_id, "spider": spider_name}).fetchone()
            message = (f"source {source_id!r} is already being crawled with the {spider_name} strategy by "
                       f"{describe_run(holder)}; not started")
            logger.error(message)
            self.crawler.gigflow_exitcode = EXIT_ALREADY_RUNNING
            raise CloseSpider("already_running")
        self.lock = lock
        with self.pool.connection() as conn, conn.transaction():
            self.run_id = conn.execute(load_sql(_SQL, "start_run.sql"),
                                       {"source_id": source_id, "spider": spider_name, **owner()}
                                       ).fetchone()["id"]
            abandon_dead_runs(conn, source_id, spider_name, self.run_id)
        self.writer = JobWriter(self.run_id)
        self.stats.set_value("gigflow/run_id", self.run_id)
        self.heartbeat = task.LoopingCall(self._beat)
        self.heartbeat.start(self.heartbeat_seconds, now=False)
        for key in ("versions_new", "versions_unchanged", "jobs_new", "jobs_updated", "jobs_gone", "warnings"):
            self.stats.set_value(f"gigflow/{key}", 0)

    def _beat(self):
        try:
            self.lock.heartbeat(self.run_id)
        except Exception as exc:  # a missed beat is logged; the run goes on
            logger.warning("run %s heartbeat failed: %s", self.run_id, exc)

    def spider_error(self, failure, response, spider):
        self.context.mark_incomplete(f"callback for {response.url} raised {failure.value!r}", "callback_error")

    def item_error(self, item, response, spider, failure):
        self.context.mark_incomplete(f"storing {item.get('url')} failed: {failure.value!r}", "store_failed")

    def process_item(self, item, spider=None):
        repairs = storable_item(item)
        if repairs:
            self.stats.inc_value("gigflow/fields_unstorable", len(repairs))
            logger.warning("%s: %s", redact_url(str(item.get("url"))), "; ".join(repairs)[:500])
            item["warnings"] = list(item.get("warnings") or []) + repairs
        try:
            return self._store(item)
        except Exception as exc:
            # One line, never the item (its Markdown, jobs and raw payload): Scrapy would log all of it.
            message = f"storing {redact_url(str(item.get('url')))} failed: {type(exc).__name__}: {str(exc)[:300]}"
            logger.error(message)
            self.context.mark_incomplete(message, "store_failed")
            raise DropItem(message) from None

    def _store(self, item):
        body = item.get("body")
        with self.pool.connection() as conn, conn.transaction():
            if item.get("not_fetched"):  # the stored version stands for the page: nothing to store
                version_id = item["source_version_id"]
                item["version_status"] = "unchanged"
                self.stats.inc_value("gigflow/pages_skipped_unchanged")
            else:
                version_id = self._store_version(conn, item, body)
            counts = self.writer.write_page(
                conn, source_id=item["source_id"], page_url=item["url"], jobs=item.get("jobs") or [],
                version_id=version_id, parser_key=item["parser_key"], parser_version=item["parser_version"],
                confidence=item["confidence"])
            if item.get("markdown") is None and item.get("version_status") == "unchanged":
                # A page answered 304 (or replayed): the export carries the stored version's Markdown.
                previous = versions.version_summary(conn, version_id)
                item.update({k: v for k, v in (previous or {}).items() if v is not None and k != "content_type"})
        self.stats.inc_value("gigflow/jobs_new", counts["new"])
        self.stats.inc_value("gigflow/jobs_unchanged" if item.get("not_fetched") else "gigflow/jobs_updated",
                             counts["seen"])
        for name in ("changed", "revived", "reextracted"):
            if counts[name]:
                self.stats.inc_value(f"gigflow/jobs_{name}", counts[name])
        item["warnings"] = list(item.get("warnings") or []) + counts["warnings"]
        self.stats.inc_value("gigflow/warnings", len(item["warnings"]))
        if (item.get("preparation") or {}).get("review_requested"):
            self.stats.inc_value("gigflow/noise_review_requested")
        item.pop("body", None)  # stored; exporters get the sha256 instead of raw bytes
        return item

    def _store_version(self, conn, item, body: bytes) -> int:
        params = {key: item.get(key) for key in ("source_id", "url", "http_status", "content_type", "etag",
                                                 "last_modified", "sha256", "size", "markdown")}
        params["body"] = body
        params["preparation"] = Jsonb(item.get("preparation")) if item.get("preparation") is not None else None
        params["jobs_digest"] = versions.jobs_digest(item.get("jobs") or [])
        stored = versions.store_fetch(conn, params)
        version_id = stored["id"]
        if stored["status"] == "new":
            item["version_status"] = "new"
            self.stats.inc_value("gigflow/versions_new")
        else:  # same bytes, or bytes whose Markdown and jobs are the stored version's (volatile parts only)
            item["version_status"] = "unchanged"
            self.stats.inc_value("gigflow/versions_unchanged")
            if stored["status"] != "unchanged":
                self.stats.inc_value(f"gigflow/versions_{stored['status']}")
        item["source_version_id"] = version_id
        path = markdown_path(self.markdown_dir, item["source_id"], stored["sha256"])
        if path and item.get("markdown") is not None:
            if stored["status"] in ("new", "reprepared") or not path.exists():  # else the file is current
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(item["markdown"], encoding="utf-8")
            item["markdown_path"] = str(path)
        return version_id

    def outcome(self, conn, spider, reason: str) -> str:
        """``finished`` only when every listing was read and yielded what a complete listing yields; else
        ``incomplete:<reason>``."""
        if reason != "finished":
            return f"incomplete:{reason}"
        code = self.stats.get_value(INCOMPLETE_REASON)
        if code:
            return f"incomplete:{code}"
        if not self.context.marks_gone:
            return "finished"
        params = {"source_id": self.context.source_id, "spider": self.context.spider_name, "run_id": self.run_id}
        counts = jobs.run_job_counts(conn, self.context.source_id, self.context.spider_name, self.run_id)
        previous = conn.execute(load_sql(_SQL, "last_complete_run.sql"), params).fetchone()
        emptied = [key.removeprefix(LISTING_LINKS) for key, value in ((previous or {}).get("stats") or {}).items()
                   if key.startswith(LISTING_LINKS) and value and not self.stats.get_value(key)]
        if (counts["seen"] == 0 and counts["at_risk"]) or emptied:
            self.context.mark_incomplete(f"listing yielded no job although the last complete run had jobs: "
                                   f"{', '.join(emptied) or 'every listing'}", "empty_listing")
            return "incomplete:empty_listing"
        return "finished"

    def pages_read(self) -> int:
        """Pages this run read (stored, unchanged or replayed, listings included)."""
        return sum(self.stats.get_value(key) or 0 for key in (
            "gigflow/versions_new", "gigflow/versions_unchanged", "gigflow/pages_skipped_unchanged",
            "gigflow/listing_pages"))

    def spider_closed(self, spider, reason):
        if self.run_id is None:
            return
        if self.heartbeat is not None and self.heartbeat.running:
            self.heartbeat.stop()
        try:
            with self.pool.connection() as conn, conn.transaction():
                outcome = self.outcome(conn, spider, reason)
                # Health is recorded here; a handler that finds drift makes the run incomplete (nothing gone).
                self.crawler.signals.send_catch_log(run_outcome_pending, spider=spider, conn=conn,
                                                    run_id=self.run_id, outcome=outcome)
                if outcome == "finished" and self.stats.get_value(INCOMPLETE_REASON):
                    outcome = f"incomplete:{self.stats.get_value(INCOMPLETE_REASON)}"
                # Spiders whose inputs are not listings (mailbox alerts) set marks_gone = False.
                if outcome == "finished" and self.context.marks_gone:
                    gone = jobs.mark_gone(conn, self.context.source_id, self.context.spider_name, self.run_id)
                    self.stats.set_value("gigflow/jobs_gone", gone)
                stats = {k: v for k, v in self.stats.get_stats().items() if isinstance(v, (int, float, str))}
                conn.execute(load_sql(_SQL, "finish_run.sql"), {"run_id": self.run_id, "stats": Jsonb(stats),
                                                                "outcome": outcome})
        except Exception as exc:
            # The run could not be recorded: the process must not exit as if it had been.
            logger.error("run %s of %s could not be finalized: %s", self.run_id, self.context.source_id, exc)
            self.crawler.gigflow_exitcode = EXIT_FINALIZATION_FAILED
            return
        finally:
            if self.lock is not None:
                self.lock.close()
        if outcome != "finished":
            logger.warning("run %s of %s/%s: %s", self.run_id, self.context.source_id, self.context.spider_name,
                           outcome)
            if not self.pages_read() and self.stats.get_value("gigflow/fetch_failures"):
                logger.error("run %s of %s read nothing (%s): every listing request was refused or failed; see "
                             "`scrapy sources show %s` and the warnings above", self.run_id, self.context.source_id,
                             outcome, self.context.source_id)
                self.crawler.gigflow_exitcode = EXIT_NOTHING_READ
        self.crawler.signals.send_catch_log(
            source_finalized, spider=spider, source_id=self.context.source_id,
            configuration_id=self.context.configuration_id, outcome=outcome,
            review_requested_by_preparation=bool(self.stats.get_value("gigflow/noise_review_requested")))
