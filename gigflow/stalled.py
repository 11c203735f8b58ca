"""Jobs a killed worker left ``doing`` go back to their queue, on every procrastinate queue gigflow runs: when a
worker starts, and every minute while workers run (procrastinate's stalled-job support: a job is stalled when its
worker's heartbeat stopped ``seconds`` ago)."""

from __future__ import annotations

import asyncio
import logging

import procrastinate

logger = logging.getLogger(__name__)


async def retry_stalled(app: procrastinate.App, queue: str, seconds: float) -> int:
    stalled = await app.job_manager.get_stalled_jobs(queue=queue, seconds_since_heartbeat=seconds)
    for job in stalled:
        logger.warning("%s job %s (%s) was left running by a dead worker; retried", queue, job.id, job.task_name)
        await app.job_manager.retry_job(job)
    return len(stalled)


def retry_stalled_now(conninfo: str, queue: str, seconds: float) -> int:
    async def run() -> int:
        app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=conninfo))
        async with app.open_async():
            return await retry_stalled(app, queue, seconds)

    return asyncio.run(run())


def add_stalled_recovery(app: procrastinate.App, queue: str, seconds: float) -> None:
    """A periodic task on ``queue`` that retries its stalled jobs every minute."""

    async def recover(context, timestamp: int) -> int:
        return await retry_stalled(context.app, queue, seconds)

    task = app.task(name=f"gigflow:retry_stalled:{queue}", queue=queue, pass_context=True,
                    queueing_lock=f"retry-stalled-{queue}")(recover)
    app.periodic(cron="* * * * *")(task)
