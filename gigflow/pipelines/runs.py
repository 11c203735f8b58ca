"""Crawl-run bookkeeping: one crawl per source and strategy (a PostgreSQL advisory lock held for the run),
the run's owner and heartbeat, recovery of runs whose owner died, and the run's outcome."""

from __future__ import annotations

import logging
import os
import socket

import psycopg
from psycopg.rows import dict_row

from gigflow.db import database_url
from gigflow.sql import load_sql

logger = logging.getLogger(__name__)
_SQL = "gigflow.pipelines"


def lock_key(source_id: str, spider: str) -> str:
    return f"gigflow.crawl:{source_id}:{spider}"


class _LockSession:
    """The one connection per process and database that holds this process's crawl locks (session advisory
    locks, released by PostgreSQL when the process dies). A batch crawls many sources at once, and a connection
    each would soon pass the server's connection limit. Opened with the first lock, closed with the last."""

    _sessions: dict[tuple[int, str], "_LockSession"] = {}

    def __init__(self, url: str):
        self.url = url
        self.conn: psycopg.Connection | None = None
        self.held: set[str] = set()

    @classmethod
    def for_url(cls, url: str) -> "_LockSession":
        # Keyed by pid too: a forked child never shares its parent's connection.
        return cls._sessions.setdefault((os.getpid(), url), cls(url))

    def execute(self, sql: str, params: dict):
        if self.conn is None or self.conn.closed:
            if self.held:  # the connection died, and with it every lock it held
                logger.error("the crawl-lock connection was lost; %d crawl lock(s) went with it", len(self.held))
                self.held.clear()
            self.conn = psycopg.connect(self.url, autocommit=True, row_factory=dict_row)
        return self.conn.execute(sql, params)

    def lock(self, key: str) -> bool:
        if key in self.held:  # advisory locks nest within a session: a second crawl here is refused by us
            return False
        locked = self.execute(load_sql(_SQL, "try_crawl_lock.sql"), {"key": key}).fetchone()["locked"]
        if locked:
            self.held.add(key)
        elif not self.held:
            self.close()
        return locked

    def unlock(self, key: str) -> None:
        if key not in self.held:
            return
        self.held.discard(key)
        try:
            if self.conn is not None and not self.conn.closed:
                self.conn.execute(load_sql(_SQL, "release_crawl_lock.sql"), {"key": key})
        except psycopg.Error:
            pass  # the connection is gone, and the lock with it
        if not self.held:
            self.close()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class CrawlLock:
    """One crawl per source and strategy: a session advisory lock held for the whole run on the process's lock
    connection, released by PostgreSQL when the process dies, so a killed crawl never blocks the next one."""

    def __init__(self, source_id: str, spider: str, url: str | None = None):
        self.source_id, self.spider = source_id, spider
        self.key = lock_key(source_id, spider)
        self.session = _LockSession.for_url(url or database_url())

    def acquire(self) -> bool:
        return self.session.lock(self.key)

    def heartbeat(self, run_id: int) -> None:
        self.session.execute(load_sql(_SQL, "heartbeat_run.sql"), {"run_id": run_id})

    def close(self) -> None:
        self.session.unlock(self.key)


def owner() -> dict:
    return {"host": socket.gethostname(), "pid": os.getpid()}


def describe_run(row: dict | None) -> str:
    if row is None:
        return "a process that has not started its run yet"
    beat = row["heartbeat_at"].isoformat(timespec="seconds") if row["heartbeat_at"] else "none yet"
    return (f"run {row['id']} (host {row['owner_host']}, pid {row['owner_pid']}, "
            f"started {row['started_at'].isoformat(timespec='seconds')}, last heartbeat {beat})")


def abandon_dead_runs(conn, source_id: str, spider: str, run_id: int) -> list[dict]:
    """Close, as ``incomplete:abandoned``, this source and spider's unfinished runs: the caller holds the
    crawl lock, so their owners are gone."""
    rows = conn.execute(load_sql(_SQL, "abandon_runs.sql"),
                        {"source_id": source_id, "spider": spider, "run_id": run_id}).fetchall()
    for row in rows:
        logger.warning("run %s of %s/%s was abandoned by its owner (host %s, pid %s); closed as incomplete:abandoned",
                       row["id"], source_id, spider, row["owner_host"], row["owner_pid"])
    return rows


def sweep_stale_runs(pool, stale_seconds: float) -> list[dict]:
    """Close every unfinished run whose heartbeat stopped more than ``stale_seconds`` ago and whose crawl lock
    is free (its owner is gone). A run whose lock is held is alive, however old its heartbeat."""
    closed = []
    with pool.connection() as conn:
        candidates = conn.execute(load_sql(_SQL, "stale_runs.sql"), {"stale_seconds": stale_seconds}).fetchall()
    for run in candidates:
        lock = CrawlLock(run["source_id"], run["spider"])
        if not lock.acquire():
            continue
        try:
            with pool.connection() as conn:
                closed += abandon_dead_runs(conn, run["source_id"], run["spider"], -1)
        finally:
            lock.close()
    return closed
