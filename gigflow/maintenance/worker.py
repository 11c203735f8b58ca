"""`scrapy jobs worker`: procrastinate periodic tasks on MAINTENANCE_CRON. Each tick prepares per-job Markdown of payload jobs, links unlinked jobs, checks
its share of the due links (LINKCHECK_INTERVAL_HOURS spread over the ticks) under the shared politeness limiter,
and runs the freshness sweep. procrastinate defers each tick once across all workers."""

from __future__ import annotations

import logging

import procrastinate

from gigflow.db import get_pool
from gigflow.documents.preparer import DocumentPreparer
from gigflow.maintenance.job_markdown import document_jobs
from gigflow.maintenance.freshness import FreshnessSettings, sweep as freshness_sweep
from gigflow.maintenance.linkcheck import LinkCheckSettings, make_fetcher, sweep as link_sweep
from gigflow.maintenance.resolve import ResolveSettings, resolve
from gigflow.stalled import add_stalled_recovery, retry_stalled_now

logger = logging.getLogger(__name__)

QUEUE = "maintenance"


def maintenance_tick(conninfo: str, settings) -> dict:
    pool = get_pool(conninfo)
    result = {"markdown": document_jobs(pool, DocumentPreparer.from_settings(settings),
                                        max_jobs_per_payload=settings.getint("MAINTENANCE_MAX_JOBS_PER_PAYLOAD")),
              "resolve": resolve(pool, ResolveSettings.from_settings(settings)),
              "links": link_sweep(pool, make_fetcher(pool, settings), LinkCheckSettings.from_settings(settings)),
              "freshness": freshness_sweep(pool, FreshnessSettings.from_settings(settings))}
    logger.info("maintenance: %s", result)
    return result


def make_maintenance_app(conninfo: str, settings) -> procrastinate.App:
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo))

    def tick(timestamp: int) -> None:
        maintenance_tick(conninfo, settings)

    task = app.task(name="gigflow:maintenance_tick", queue=QUEUE, queueing_lock="maintenance-tick")(tick)
    app.periodic(cron=settings.get("MAINTENANCE_CRON"))(task)
    add_stalled_recovery(app, QUEUE, settings.getfloat("QUEUE_STALLED_SECONDS"))
    from gigflow.delivery.webhooks import register

    register(app, conninfo, settings, QUEUE)  # webhook deliveries ride the same queue and worker
    return app


def run_worker(conninfo: str, settings) -> None:
    # A worker killed mid-tick left its job `doing`: it goes back to the queue before this worker starts.
    retry_stalled_now(conninfo, QUEUE, settings.getfloat("QUEUE_STALLED_SECONDS"))
    app = make_maintenance_app(conninfo, settings)
    with app.open():
        app.run_worker(queues=[QUEUE], delete_jobs="always")
