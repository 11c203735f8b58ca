"""Runs whose owner died: found when a crawl of their source starts (its lock taken) and by the sweep
(``scrapy sources sweep``), and closed as ``incomplete:abandoned``."""

from __future__ import annotations

import logging
import os
import socket

from gigflow.runs import queries
from gigflow.runs.lock import CrawlLock
from gigflow.runs.queries import OpenRun, RunOwner

logger = logging.getLogger(__name__)


def _process_gone(pid: int) -> bool:
    """True when no process ``pid`` runs on this machine (a zombie counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except (OSError, IndexError):
        return False


def owner_alive(run: OpenRun, live_seconds: float) -> bool:
    """Whether the owner of an unfinished run must be presumed alive. Its crawl lock is free (the caller holds
    it), but a lock goes with a lost connection too: an owner whose heartbeat is younger than ``live_seconds``
    is alive, unless it ran on this machine and its process is gone."""
    if run.silent_seconds is None or run.silent_seconds > live_seconds:
        return False
    if run.owner_host == socket.gethostname() and run.owner_pid and run.owner_pid != os.getpid():
        return not _process_gone(run.owner_pid)
    return True


def describe_run(run: RunOwner | None) -> str:
    if run is None:
        return "a process that has not started its run yet"
    beat = run.heartbeat_at.isoformat(timespec="seconds") if run.heartbeat_at else "none yet"
    return (f"run {run.id} (host {run.owner_host}, pid {run.owner_pid}, "
            f"started {run.started_at.isoformat(timespec='seconds')}, last heartbeat {beat})")


def abandon_dead_runs(conn, source_id: str, spider: str, run_id: int, dead: list[int]) -> list[RunOwner]:
    """Close, as ``incomplete:abandoned``, the runs ``dead`` of this source and spider: the caller holds the
    crawl lock and found their owners gone (owner_alive)."""
    runs = queries.abandon_runs(conn, source_id, spider, run_id, dead)
    for run in runs:
        logger.warning("run %s of %s/%s was abandoned by its owner (host %s, pid %s); closed as incomplete:abandoned",
                       run.id, source_id, spider, run.owner_host, run.owner_pid)
    return runs


def sweep_stale_runs(pool, stale_seconds: float) -> list[RunOwner]:
    """Close every unfinished run whose owner is gone: its crawl lock is free and either its heartbeat stopped
    more than ``stale_seconds`` ago or it ran on this machine and its process is gone. A run whose lock is held
    is alive, however old its heartbeat. One query reads the runs, one closes the dead ones (their heartbeat
    unchanged since the read), whatever their number; the locks are taken one key at a time meanwhile."""
    with pool.connection() as conn:
        candidates = queries.stale_runs(conn)
    dead: dict[tuple[str, str], list[OpenRun]] = {}
    for run in candidates:
        if not owner_alive(run, stale_seconds):
            dead.setdefault((run.source_id, run.spider), []).append(run)
    locks, closing = [], []
    try:
        for (source_id, spider), runs in dead.items():
            lock = CrawlLock(source_id, spider)
            if lock.acquire():
                locks.append(lock)
                closing += runs
        if not closing:
            return []
        with pool.connection() as conn:
            closed = queries.sweep_abandon_runs(conn, closing)
    finally:
        for lock in locks:
            lock.close()
    for run in closed:
        logger.warning("run %s of %s/%s was abandoned by its owner (host %s, pid %s); closed as incomplete:abandoned",
                       run.id, run.source_id, run.spider, run.owner_host, run.owner_pid)
    return sorted(closed, key=lambda run: run.id)
