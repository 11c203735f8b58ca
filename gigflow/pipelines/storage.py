"""Store source versions (content-addressed), upsert jobs by canonical key, record the crawl run."""

from __future__ import annotations

import logging
import time

from psycopg.types.json import Jsonb
from scrapy import signals
from scrapy.exceptions import CloseSpider, DropItem
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet import defer, task, threads

from gigflow.context import INCOMPLETE_REASON, CrawlContext
from gigflow.db import get_pool
from gigflow.db.outage import INCOMPLETE_DATABASE, DatabaseOutage, is_database_error
from gigflow.paths import markdown_path
from gigflow.safety.guard import redact_url
from gigflow.pipelines.jobs import JobWriter
from gigflow.pipelines.storable import storable_item
from gigflow.pipelines.runs import CrawlLock, abandon_dead_runs, describe_run, open_runs, owner, owner_alive
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
OWNERSHIP_LOST = "ownership_lost"  # incomplete:ownership_lost: another process closed this run meanwhile


# Beyond DATABASE_FINALIZE_WAIT, how long a shutdown waits for a run's finalization (its thread's last query).
SHUTDOWN_GRACE_S = 30.0

class StoragePipeline:
    def __init__(self, crawler, markdown_dir: str, heartbeat_seconds: float, live_seconds: float = 30.0,
                 finalize_wait: float = 10.0):
        self.crawler = crawler
        self.live_seconds = live_seconds
        self.finalize_wait = finalize_wait
        self.outage = DatabaseOutage.for_crawler(crawler)
        self.token: str | None = None
        self.ownership_lost = False
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
        settings = crawler.settings
        pipeline = cls(crawler, settings.get("MARKDOWN_DIR", ""), settings.getfloat("CRAWL_HEARTBEAT_SECONDS"),
                       settings.getfloat("CRAWL_LIVE_SECONDS"), settings.getfloat("DATABASE_FINALIZE_WAIT"))
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
            self._refuse(holder)
        try:
            with self.pool.connection() as conn, conn.transaction():
                # The lock is ours, but a live crawl whose lock went with a lost connection (a database restart)
                # holds none: an unfinished run with a fresh heartbeat still refuses us.
                unfinished = open_runs(conn, source_id, spider_name)
                alive = [run for run in unfinished if owner_alive(run, self.live_seconds)]
                if alive:
                    self._refuse(alive[0])
                run_owner = owner()
                self.run_id = conn.execute(load_sql(_SQL, "start_run.sql"),
                                           {"source_id": source_id, "spider": spider_name, **run_owner}
                                           ).fetchone()["id"]
                self.token = run_owner["token"]
                abandon_dead_runs(conn, source_id, spider_name, self.run_id, [run["id"] for run in unfinished])
        except BaseException:
            lock.close()
            raise
        self.lock = lock
        self.writer = JobWriter(self.run_id)
        self.stats.set_value("gigflow/run_id", self.run_id)
        self.heartbeat = task.LoopingCall(self._beat)
        self.heartbeat.start(self.heartbeat_seconds, now=False)
        for key in ("versions_new", "versions_unchanged", "jobs_new", "jobs_updated", "jobs_gone", "warnings"):
            self.stats.set_value(f"gigflow/{key}", 0)

    def _refuse(self, holder: dict | None):
        source_id, spider_name = self.context.source_id, self.context.spider_name
        message = (f"source {source_id!r} is already being crawled with the {spider_name} strategy by "
                   f"{describe_run(holder)}; not started")
        logger.error(message)
        self.crawler.gigflow_exitcode = EXIT_ALREADY_RUNNING
        raise CloseSpider("already_running")

    def _beat(self):
        """One heartbeat, in a thread (a database that does not answer never blocks the reactor)."""
        return threads.deferToThread(self.lock.heartbeat, self.run_id, self.token).addCallbacks(
            self._beaten, self._beat_failed)

    def _beaten(self, owned: bool):
        self.outage.succeeded()
        if not owned and not self.ownership_lost:
            logger.error("run %s of %s is no longer open under this process (another process closed it): "
                         "stopping", self.run_id, self.context.source_id)
            self.ownership_lost = True  # one close only
            self.context.mark_incomplete("the run was closed by another process", OWNERSHIP_LOST)
            from scrapy.utils.defer import deferred_from_coro

            deferred_from_coro(self.crawler.engine.close_spider_async(reason=OWNERSHIP_LOST))

    def _beat_failed(self, failure):  # a missed beat is logged; the run goes on while the outage is short
        if is_database_error(failure.value):
            self.outage.failed(failure.value)
        else:
            logger.warning("run %s heartbeat failed: %s", self.run_id, failure.value)

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
            self.stats.inc_value("gigflow/fields_unstorable", len(repairs))
            logger.warning("%s: %s", redact_url(str(item.get("url"))), "; ".join(repairs)[:500])
            item["warnings"] = list(item.get("warnings") or []) + repairs
        try:
            return self._store(item)
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

    def _store(self, item):
        body = item.get("body")
        # While the database is known to be away, a short wait: the reactor is not held for a whole pool timeout
        # per item (the item is lost to this run, which is then incomplete:database).
        wait = 0.5 if self.outage.since is not None else None
        with self.pool.connection(timeout=wait) as conn, conn.transaction():
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

    async def spider_closed(self, spider, reason):
        """Finalize the run. The database work runs in a thread and the retries wait with the reactor free: the
        other crawls of this process (a batch) go on while this run waits for its database. Scrapy waits for the
        coroutine before it closes the crawl."""
        if self.run_id is None:
            return
        if self.heartbeat is not None and self.heartbeat.running:
            self.heartbeat.stop()
        closing = defer.ensureDeferred(self._close(spider, reason))
        limit = self.finalize_wait + SHUTDOWN_GRACE_S
        await maybe_deferred_to_future(self._finished_before_shutdown(closing, limit))

    @staticmethod
    def _finished_before_shutdown(closing: defer.Deferred, limit_s: float) -> defer.Deferred:
        """A SIGTERM while the run finalizes stops the reactor once the engine is closed, which it already is:
        the reactor waits for ``closing`` (a "before shutdown" trigger), so the lock is released and
        ``source_finalized`` (health, the noise review, the after-crawl work, which sees the shutdown) still runs.
        A shutdown waits ``limit_s`` at most (a database that stopped answering mid-query): then the process
        ends and the sweep closes the run."""
        from twisted.internet import reactor

        done = defer.Deferred()
        give_up = reactor.callLater(limit_s, lambda: None if done.called else done.callback(None))
        trigger = reactor.addSystemEventTrigger("before", "shutdown", lambda: done)

        def finished(result):
            try:
                reactor.removeSystemEventTrigger(trigger)
            except (ValueError, KeyError):  # already fired or removed by a shutdown in progress
                pass
            if give_up.active():
                give_up.cancel()
            if not done.called:
                done.callback(None)
            return result

        return closing.addBoth(finished)

    async def _close(self, spider, reason) -> None:
        try:
            outcome = await self._finalize_with_retries(spider, reason)
        except Exception as exc:
            # The run could not be recorded: the process must not exit as if it had been.
            logger.error("run %s of %s could not be finalized: %s", self.run_id, self.context.source_id,
                         " ".join(str(exc).split()) or type(exc).__name__)
            self.crawler.gigflow_exitcode = EXIT_FINALIZATION_FAILED
            return
        finally:
            if self.lock is not None:
                await threads.deferToThread(self.lock.close)  # a connection that does not answer blocks no one
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

    async def _finalize_with_retries(self, spider, reason) -> str:
        """Finalize (in a thread); while the database cannot be reached, retry with back-off for
        DATABASE_FINALIZE_WAIT seconds (a restart is over in a few), then give up (the sweep closes the run
        later). The pauses are reactor timers, never a sleep on the reactor thread."""
        from twisted.internet import reactor

        deadline, pause = time.monotonic() + self.finalize_wait, 0.5
        while True:
            try:
                return await threads.deferToThread(self._finalize, spider, reason)
            except Exception as exc:
                if not is_database_error(exc) or time.monotonic() + pause > deadline:
                    raise
                logger.warning("run %s: the database cannot be reached to finalize it; retrying in %.1f s",
                               self.run_id, pause)
                await task.deferLater(reactor, pause, lambda: None)
                pause = min(pause * 2, 4.0)

    def _finalize(self, spider, reason) -> str:
        with self.pool.connection() as conn, conn.transaction():
            outcome = self.outcome(conn, spider, reason)
            # Health is recorded here; a handler that finds drift makes the run incomplete (nothing gone).
            self.crawler.signals.send_catch_log(run_outcome_pending, spider=spider, conn=conn,
                                                run_id=self.run_id, outcome=outcome)
            if outcome == "finished" and self.stats.get_value(INCOMPLETE_REASON):
                outcome = f"incomplete:{self.stats.get_value(INCOMPLETE_REASON)}"
            # Spiders whose inputs are not listings (mailbox alerts) set marks_gone = False.
            if outcome == "finished" and self.context.marks_gone:
                gone = jobs.mark_gone(conn, self.context.source_id, self.context.spider_name, self.run_id,
                                      self.token)
                self.stats.set_value("gigflow/jobs_gone", gone)
            # a copy first: this runs in a thread while the reactor may still add stats (dict() copies at once)
            stats = {k: v for k, v in dict(self.stats.get_stats()).items() if isinstance(v, (int, float, str))}
            finished = conn.execute(load_sql(_SQL, "finish_run.sql"), {
                "run_id": self.run_id, "stats": Jsonb(stats), "outcome": outcome, "token": self.token}).fetchone()
            if finished is None:  # closed by another process meanwhile: roll back what this transaction did
                raise RunNotOwned(f"run {self.run_id} was closed by another process meanwhile; nothing recorded")
        return outcome


class RunNotOwned(RuntimeError):
    """The run is no longer open under this process's token."""
