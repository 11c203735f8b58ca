"""The review queue on PostgreSQL (procrastinate): one automatic job id per configuration, a separate manual
one, an hourly cycle limit with deferrals of at most 10 minutes, 3 attempts per cycle, reconciliation every
15 minutes, finished and failed jobs deleted so their ids can be reused."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import procrastinate
from procrastinate import exceptions as queue_errors
from psycopg_pool import ConnectionPool

from gigflow.noise.current import DEFAULT_MAX_BYTES
from gigflow.noise.events import emit
from gigflow.noise.learn.lifecycle.procedures import (
    ReconcilePage, mark_automatic_cycle, reconcile_page, seconds_until_next_cycle,
)
from gigflow.noise.learn.lifecycle.review import Learner, ReviewKind, run_review

logger = logging.getLogger(__name__)

QUEUE = "noise"
REVIEW_TASK = "gigflow:noise_review"
RECONCILE_TASK = "gigflow:noise_reconcile"
STALLED_TASK = "gigflow:noise_retry_stalled"
ATTEMPTS_PER_CYCLE = 3


class TransientReviewError(Exception):
    """A review failed in a way worth another attempt (model timeout, 5xx, lost connection)."""


@dataclass
class ReviewRuntime:
    """What a worker's tasks need; passed as procrastinate's additional context, never a global."""

    pool: ConnectionPool
    learner: Learner
    cycle_seconds: float = 3600.0
    max_deferral_seconds: float = 600.0
    max_filter_bytes: int = DEFAULT_MAX_BYTES
    reconcile_page_size: int = 100
    stalled_seconds: float = 60.0  # a worker silent this long is dead; its `doing` jobs are retried
    # Runs with the configuration id after a new filter is saved: the worker prepares the configuration's stored
    # versions again with it (gigflow.maintenance.reprepare), so unchanged pages are not left with the old Markdown.
    after_save: Callable[[int], object] | None = None


def review_lock(configuration_id: int, kind: ReviewKind) -> str:
    """Automatic requests share one id per configuration; manual ones have their own, so no delay suppresses them."""
    return f"noise-review:{'manual' if kind is ReviewKind.manual else 'auto'}:{configuration_id}"


def _defer(app: procrastinate.App, configuration_id: int, kind: ReviewKind, delay_seconds: float = 0) -> int | None:
    options = {"queueing_lock": review_lock(configuration_id, kind), "queue": QUEUE}
    if delay_seconds > 0:
        options["schedule_in"] = {"seconds": round(delay_seconds, 3)}
    try:
        return app.configure_task(REVIEW_TASK, **options).defer(configuration_id=configuration_id, kind=kind.value)
    except queue_errors.AlreadyEnqueued:
        return None  # one waiting request per id is enough: it will see the latest samples


def sync_app(pool: ConnectionPool) -> procrastinate.App:
    """An App that defers through our own pool (usable inside Scrapy's event loop and in threads)."""
    connector = procrastinate.SyncPsycopgConnector()
    connector.open(pool)
    return procrastinate.App(connector=connector)


def request_review(pool: ConnectionPool, configuration_id: int, kind: ReviewKind, *, reason: str = "") -> int | None:
    """Enqueue a review; returns the job id, or None when an identical request is already waiting."""
    job_id = _defer(sync_app(pool), configuration_id, kind)
    emit("review_requested", configuration_id, kind=kind.value, reason=reason, job_id=job_id,
         merged_into_waiting_request=job_id is None)
    return job_id


def noise_review(context, configuration_id: int, kind: str):
    runtime: ReviewRuntime = context.additional_context["runtime"]
    review_kind = ReviewKind(kind)
    pool = runtime.pool
    automatic = review_kind.automatic
    attempt = context.job.attempts + 1
    try:
        outcome = run_review(
            pool, configuration_id, review_kind, runtime.learner,
            on_started=(lambda: mark_automatic_cycle(pool, configuration_id)) if automatic else None,
            cycle_wait=(lambda: seconds_until_next_cycle(pool, configuration_id, runtime.cycle_seconds))
            if automatic else None,
            max_filter_bytes=runtime.max_filter_bytes, after_save=runtime.after_save)
    except Exception as exc:
        if attempt < ATTEMPTS_PER_CYCLE:
            emit("review_retried", configuration_id, kind=kind, attempt=attempt, error=str(exc)[:500])
        else:
            emit("review_failed", configuration_id, kind=kind, attempt=attempt, error=str(exc)[:500])
        raise TransientReviewError(str(exc)) from exc
    if outcome.status == "deferred":
        step = min(outcome.wait_seconds, runtime.max_deferral_seconds)
        _defer(sync_app(pool), configuration_id, review_kind, step)
        emit("review_deferred", configuration_id, kind=kind, seconds=round(step, 1), reason=outcome.detail)
    return outcome.model_dump(exclude={"noise_filter", "learner_report"})


def noise_reconcile(context, timestamp: int):
    """Request a scheduled review for every configuration with an active source; unchanged samples skip."""
    runtime: ReviewRuntime = context.additional_context["runtime"]
    return reconcile_all(runtime.pool, runtime.reconcile_page_size)


def reconcile_all(pool: ConnectionPool, page_size: int = 100) -> int:
    cursor, requested = 0, 0
    while cursor is not None:
        page = reconcile_page(pool, ReconcilePage(after_id=cursor, limit=page_size))
        for configuration_id in page.configuration_ids:
            request_review(pool, configuration_id, ReviewKind.scheduled, reason="reconciliation scan")
            requested += 1
        cursor = page.next_cursor
    return requested


async def retry_stalled_jobs(app: procrastinate.App, seconds_since_heartbeat: float) -> int:
    """Jobs left ``doing`` by a worker that died (no heartbeat for ``seconds_since_heartbeat``) go back to the
    queue: procrastinate's own stalled-job support."""
    stalled = await app.job_manager.get_stalled_jobs(queue=QUEUE, seconds_since_heartbeat=seconds_since_heartbeat)
    for job in stalled:
        logger.warning("noise job %s (%s) was left running by a dead worker; retried", job.id, job.task_name)
        await app.job_manager.retry_job(job)
    return len(stalled)


async def noise_retry_stalled(context, timestamp: int):
    await retry_stalled_jobs(context.app, context.additional_context["runtime"].stalled_seconds)


async def _retry_stalled_now(conninfo: str, seconds_since_heartbeat: float) -> int:
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo))
    async with app.open_async():
        return await retry_stalled_jobs(app, seconds_since_heartbeat)


def make_app(conninfo: str, *, periodic: bool = True) -> procrastinate.App:
    """A worker App with both tasks registered (a fresh registration per App: blueprints bind to one App only)."""
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo))
    app.task(name=REVIEW_TASK, queue=QUEUE, pass_context=True,
             retry=procrastinate.RetryStrategy(max_attempts=ATTEMPTS_PER_CYCLE - 1, exponential_wait=5,
                                               retry_exceptions={TransientReviewError}))(noise_review)
    reconcile = app.task(name=RECONCILE_TASK, queue=QUEUE, pass_context=True,
                         queueing_lock="noise-reconcile")(noise_reconcile)
    stalled = app.task(name=STALLED_TASK, queue=QUEUE, pass_context=True,
                       queueing_lock="noise-retry-stalled")(noise_retry_stalled)
    if periodic:  # every 15 minutes; the queueing lock keeps at most one scan waiting
        app.periodic(cron="*/15 * * * *")(reconcile)
        app.periodic(cron="* * * * *")(stalled)  # dead workers' jobs are back in the queue within a minute
    return app


def run_worker(conninfo: str, runtime: ReviewRuntime, *, once: bool = False, concurrency: int = 1,
               restart_delay: float = 5.0) -> None:
    """Run the review worker; a lost database connection restarts it after a pause instead of ending it."""
    while True:
        # A worker that died mid-job left it `doing`; this worker starts by putting such jobs back.
        asyncio.run(_retry_stalled_now(conninfo, runtime.stalled_seconds))
        app = make_app(conninfo, periodic=not once)  # a one-shot run drains the queue, it schedules nothing
        try:
            with app.open():
                app.run_worker(queues=[QUEUE], concurrency=concurrency, wait=not once, delete_jobs="always",
                               additional_context={"runtime": runtime}, install_signal_handlers=not once)
            return
        except (queue_errors.ConnectorException, OSError) as exc:
            if once:
                raise
            logger.warning("noise worker lost the database (%s); restarting in %.0f s", exc, restart_delay)
            time.sleep(restart_delay)
