"""A crawl run from its start to its record: the crawl lock and the run's row at the start, the heartbeat while it
runs, and the one finalizer at its end.

Finalizing is one transaction: the run's facts are read, the assessors registered on the ledger (health) give their
verdicts on the provisional outcome, ``decide_outcome()`` decides, a complete run marks the jobs it did not see
gone, the run is finished (only by its owner: the token is checked), the recorders write beside it (health's row,
scheduling's claim), and ``next_crawl()`` sets the source's next crawl time. After commit ``source_finalized``
lets the side effects follow (lifecycle transitions, the noise review, the after-crawl work); none of them decides
anything about the run.

The database work runs in a thread and its retries wait on reactor timers: the other crawls of a batch process go
on while one run waits for its database (DATABASE_FINALIZE_WAIT, then the sweep closes the run later)."""

from __future__ import annotations

import logging
import time
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from scrapy.exceptions import CloseSpider
from scrapy.utils.defer import deferred_from_coro, maybe_deferred_to_future
from twisted.internet import defer, task, threads

from gigflow import keys
from gigflow.db.outage import DatabaseOutage, is_database_error
from gigflow.runs.decide import (OWNERSHIP_LOST, CrawlPace, Decision, RunFacts, decide_outcome, exit_code,
                                 listings_matter, next_crawl)
from gigflow.runs.exits import EXIT_ALREADY_RUNNING, EXIT_FINALIZATION_FAILED
from gigflow.runs.ledger import run_ledger
from gigflow.runs import queries
from gigflow.runs.lock import CrawlLock, owner
from gigflow.runs.queries import RunOwner
from gigflow.runs.recovery import abandon_dead_runs, describe_run, owner_alive
from gigflow.signals import source_finalized
from gigflow.store import jobs

if TYPE_CHECKING:
    from gigflow.context import CrawlContext

logger = logging.getLogger(__name__)
# Beyond DATABASE_FINALIZE_WAIT, how long a shutdown waits for a run's finalization (its thread's last query).
SHUTDOWN_GRACE_S = 30.0
FAILED_RUNS_COUNTED = 19  # earlier incomplete runs in a row the retry backoff counts (it is capped long before)


class RunNotOwned(RuntimeError):
    """The run is no longer open under this process's token."""


class CrawlRun:
    """One run of the crawler's source and strategy (``context``: the crawl context its spider opened)."""

    def __init__(self, crawler, context: "CrawlContext", pool, *, heartbeat_seconds: float,
                 live_seconds: float = 30.0, finalize_wait: float = 10.0, pace: CrawlPace | None = None):
        self.crawler = crawler
        self.context = context
        self.ledger = run_ledger(crawler)
        self.heartbeat_seconds = heartbeat_seconds
        self.live_seconds = live_seconds
        self.finalize_wait = finalize_wait
        self.pace = pace or CrawlPace()
        self.outage = DatabaseOutage.for_crawler(crawler)
        self.pool = pool  # the run's database (the DATABASE_URL setting's, handed down by its pipeline)
        self.lock: CrawlLock | None = None
        self.heartbeat: task.LoopingCall | None = None
        self.ownership_lost = False

    @classmethod
    def from_crawler(cls, crawler, context: "CrawlContext", pool) -> "CrawlRun":
        settings = crawler.settings
        return cls(crawler, context, pool, heartbeat_seconds=settings.getfloat("CRAWL_HEARTBEAT_SECONDS"),
                   live_seconds=settings.getfloat("CRAWL_LIVE_SECONDS"),
                   finalize_wait=settings.getfloat("DATABASE_FINALIZE_WAIT"), pace=CrawlPace.from_settings(settings))

    @property
    def run_id(self) -> int | None:
        return self.ledger.run_id

    # -- the start -----------------------------------------------------------------------------------------------

    def start(self) -> int:
        """Take the crawl lock and open the run (closing the runs of dead owners); refuse, with exit code 3 and
        CloseSpider("already_running"), while another crawl of the source and strategy runs."""
        source_id, spider_name = self.context.source_id, self.context.spider_name
        lock = CrawlLock(source_id, spider_name, self.pool.conninfo)
        if not lock.acquire():
            with self.pool.connection() as conn:
                holder = queries.running_run(conn, source_id, spider_name)
            self._refuse(holder)
        try:
            with self.pool.connection() as conn, conn.transaction():
                # The lock is ours, but a live crawl whose lock went with a lost connection (a database restart)
                # holds none: an unfinished run with a fresh heartbeat still refuses us.
                unfinished = queries.open_runs(conn, source_id, spider_name)
                alive = [run for run in unfinished if owner_alive(run, self.live_seconds)]
                if alive:
                    self._refuse(alive[0])
                run_owner = owner()
                run_id = queries.start_run(conn, source_id, spider_name, **run_owner)
                abandon_dead_runs(conn, source_id, spider_name, run_id, [run.id for run in unfinished])
        except BaseException:
            lock.close()
            raise
        self.lock = lock
        self.ledger.run_id, self.ledger.token = run_id, run_owner["token"]
        self.heartbeat = task.LoopingCall(self._beat)
        self.heartbeat.start(self.heartbeat_seconds, now=False)
        return run_id

    def _refuse(self, holder: RunOwner | None):
        source_id, spider_name = self.context.source_id, self.context.spider_name
        logger.error(f"source {source_id!r} is already being crawled with the {spider_name} strategy by "
                     f"{describe_run(holder)}; not started")
        self.ledger.exit_code = EXIT_ALREADY_RUNNING
        raise CloseSpider("already_running")

    # -- while it runs -------------------------------------------------------------------------------------------

    def _beat(self):
        """One heartbeat, in a thread (a database that does not answer never blocks the reactor)."""
        return threads.deferToThread(self.lock.heartbeat, self.ledger.run_id, self.ledger.token).addCallbacks(
            self._beaten, self._beat_failed)

    def _beaten(self, owned: bool):
        self.outage.succeeded()
        if not owned and not self.ownership_lost:
            logger.error("run %s of %s is no longer open under this process (another process closed it): "
                         "stopping", self.ledger.run_id, self.context.source_id)
            self.ownership_lost = True  # one close only
            self.context.mark_incomplete("the run was closed by another process", OWNERSHIP_LOST)
            deferred_from_coro(self.crawler.engine.close_spider_async(reason=OWNERSHIP_LOST))

    def _beat_failed(self, failure):  # a missed beat is logged; the run goes on while the outage is short
        if is_database_error(failure.value):
            self.outage.failed(failure.value)
        else:
            logger.warning("run %s heartbeat failed: %s", self.ledger.run_id, failure.value)

    # -- the end -------------------------------------------------------------------------------------------------

    async def close(self, spider, reason: str) -> None:
        """Finalize the run (Scrapy waits for this coroutine before it closes the crawl)."""
        if self.ledger.run_id is None:
            return
        if self.heartbeat is not None and self.heartbeat.running:
            self.heartbeat.stop()
        closing = defer.ensureDeferred(self._close(spider, reason))
        await maybe_deferred_to_future(self._finished_before_shutdown(closing, self.finalize_wait + SHUTDOWN_GRACE_S))

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

    async def _close(self, spider, reason: str) -> None:
        run_id, source_id = self.ledger.run_id, self.context.source_id
        try:
            decision = await self._finalize_with_retries(reason)
        except Exception as exc:
            # The run could not be recorded: the process must not exit as if it had been.
            logger.error("run %s of %s could not be finalized: %s", run_id, source_id,
                         " ".join(str(exc).split()) or type(exc).__name__)
            self.ledger.exit_code = EXIT_FINALIZATION_FAILED
            return
        finally:
            if self.lock is not None:
                await threads.deferToThread(self.lock.close)  # a connection that does not answer blocks no one
        stats = self.crawler.stats
        if not decision.complete:
            logger.warning("run %s of %s/%s: %s", run_id, source_id, self.context.spider_name, decision.outcome)
            code = exit_code(decision, pages_read(stats.get_stats()), stats.get_value(keys.FETCH_FAILURES) or 0)
            if code:
                self.ledger.exit_code = code
                logger.error("run %s of %s read nothing (%s): every listing request was refused or failed; see "
                             "`scrapy sources show %s` and the warnings above", run_id, source_id, decision.outcome,
                             source_id)
        self.crawler.signals.send_catch_log(
            source_finalized, spider=spider, source_id=source_id, configuration_id=self.context.configuration_id,
            outcome=decision.outcome, run=self.ledger,
            review_requested_by_preparation=bool(stats.get_value(keys.NOISE_REVIEW_REQUESTED)))

    async def _finalize_with_retries(self, reason: str) -> Decision:
        """Finalize (in a thread); while the database cannot be reached, retry with back-off for
        DATABASE_FINALIZE_WAIT seconds (a restart is over in a few), then give up (the sweep closes the run
        later). The pauses are reactor timers, never a sleep on the reactor thread."""
        from twisted.internet import reactor

        deadline, pause = time.monotonic() + self.finalize_wait, 0.5
        while True:
            try:
                return await threads.deferToThread(self._finalize, reason)
            except Exception as exc:
                if not is_database_error(exc) or time.monotonic() + pause > deadline:
                    raise
                logger.warning("run %s: the database cannot be reached to finalize it; retrying in %.1f s",
                               self.ledger.run_id, pause)
                await task.deferLater(reactor, pause, lambda: None)
                pause = min(pause * 2, 4.0)

    def _finalize(self, reason: str) -> Decision:
        """The one transaction that records the run (in a thread)."""
        ledger, source_id, spider_name = self.ledger, self.context.source_id, self.context.spider_name
        # a copy first: this runs in a thread while the reactor may still add stats (dict() copies at once)
        stats = {k: v for k, v in dict(self.crawler.stats.get_stats()).items() if isinstance(v, (int, float, str))}
        with self.pool.connection() as conn, conn.transaction():
            facts = self._facts(conn, reason, stats)
            provisional = decide_outcome(facts)
            verdicts = [self._participate(conn, assess, provisional.outcome) for assess in ledger.assessors]
            decision = decide_outcome(facts, verdicts)
            if decision.why:
                logger.warning("run incomplete (%s): %s", decision.code, decision.why)
            if decision.complete and facts.marks_gone:
                gone = jobs.mark_gone(conn, source_id, spider_name, ledger.run_id, ledger.token)
                stats[keys.JOBS_GONE] = gone
                self.crawler.stats.set_value(keys.JOBS_GONE, gone)
            if not queries.finish_run(conn, ledger.run_id, ledger.token, decision.outcome, stats):
                # closed by another process meanwhile: roll back what this transaction did
                raise RunNotOwned(f"run {ledger.run_id} was closed by another process meanwhile; nothing recorded")
            for record in ledger.recorders:
                self._participate(conn, record, decision)
            next_crawl_at = self._set_next_crawl(conn, decision, stats)
        ledger.outcome, ledger.next_crawl_at = decision.outcome, next_crawl_at
        return decision

    def _facts(self, conn, reason: str, stats: dict) -> RunFacts:
        context, ledger = self.context, self.ledger
        facts = RunFacts(reason, ledger.incomplete_code, context.marks_gone)
        if not listings_matter(facts.finish_reason, facts.incomplete_code, facts.marks_gone):
            return facts
        counts = jobs.run_job_counts(conn, context.source_id, context.spider_name, ledger.run_id)
        previous = queries.last_complete_run_stats(conn, context.source_id, context.spider_name, ledger.run_id)
        emptied = tuple(key.removeprefix(keys.LISTING_LINKS)
                        for key, value in (previous or {}).items()
                        if key.startswith(keys.LISTING_LINKS) and value and not stats.get(key))
        return RunFacts(reason, None, True, counts.seen, counts.at_risk, emptied)

    def _participate(self, conn, call, *args):
        """An assessor's or recorder's call, in a savepoint: its failure is logged and never aborts the run's
        record (a database that cannot be reached still does: the finalizer retries)."""
        try:
            with conn.transaction():
                return call(conn, self.ledger, *args)
        except Exception as exc:
            if is_database_error(exc):
                raise
            logger.exception("run %s: %s failed: %s", self.ledger.run_id, getattr(call, "__qualname__", call), exc)
            return None

    def _set_next_crawl(self, conn, decision: Decision, stats: dict) -> datetime:
        source_id = self.context.source_id
        unchanged, failed, status = 0, 1, None
        if decision.complete:  # only a complete run counts toward the adaptive schedule
            counted = queries.count_unchanged_runs(conn, source_id, bool(stats.get(keys.VERSIONS_NEW)))
            unchanged, status = (counted.unchanged_runs, counted.status) if counted else (0, None)
        else:
            failed += queries.failed_in_a_row(conn, source_id, self.ledger.run_id, FAILED_RUNS_COUNTED)
        at = next_crawl(decision.outcome, self.pace, datetime.now(timezone.utc), unchanged_runs=unchanged,
                        failed_in_a_row=failed, status=status)
        queries.set_next_crawl(conn, source_id, at)
        return at


def pages_read(stats: dict) -> int:
    """Pages a run read (stored, unchanged or replayed, listings included)."""
    return sum(stats.get(key) or 0 for key in (keys.VERSIONS_NEW, keys.VERSIONS_UNCHANGED,
                                               keys.PAGES_SKIPPED_UNCHANGED, keys.LISTING_PAGES))
