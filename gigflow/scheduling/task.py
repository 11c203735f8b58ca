"""schedule-due as a periodic procrastinate task (``scrapy schedule-due --worker``), instead of cron.

procrastinate defers each periodic tick once across all workers, and the claims make a pass safe beside any
other, so a worker on every node is fine."""

from __future__ import annotations

import logging

import procrastinate

from gigflow.db import get_pool
from gigflow.scheduling.scrapyd import ScheduleRequest, schedule_due
from gigflow.stalled import add_stalled_recovery, retry_stalled_now

logger = logging.getLogger(__name__)

QUEUE = "schedule"
TASK = "gigflow:schedule_due"


def make_schedule_app(conninfo: str, request: ScheduleRequest, cron: str,
                      stalled_seconds: float = 60.0) -> procrastinate.App:
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo))

    def schedule_due_task(timestamp: int) -> int:
        results, nodes = schedule_due(get_pool(conninfo), request)
        for node in nodes:
            if node.error:
                logger.warning("schedule-due: %s", node.error)
        scheduled = [r for r in results if r.job_id]
        for result in results:
            if result.error:
                logger.warning("schedule-due: %s %s: %s", result.source_id, result.spider, result.error)
        logger.info("schedule-due: %d job(s) scheduled", len(scheduled))
        return len(scheduled)

    task = app.task(name=TASK, queue=QUEUE, queueing_lock="schedule-due")(schedule_due_task)
    app.periodic(cron=cron)(task)
    add_stalled_recovery(app, QUEUE, stalled_seconds)
    return app


def run_schedule_worker(conninfo: str, request: ScheduleRequest, cron: str, stalled_seconds: float = 60.0) -> None:
    retry_stalled_now(conninfo, QUEUE, stalled_seconds)  # a killed worker's pass goes back to the queue
    app = make_schedule_app(conninfo, request, cron, stalled_seconds)
    with app.open():
        app.run_worker(queues=[QUEUE], delete_jobs="always")
