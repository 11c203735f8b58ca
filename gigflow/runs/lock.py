"""One crawl per source and strategy: a PostgreSQL advisory lock held for the run, and the run's owner and
heartbeat."""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid

import psycopg
from psycopg.rows import dict_row

from gigflow.db import connect, database_url
from gigflow.runs import queries

logger = logging.getLogger(__name__)


def lock_key(source_id: str, spider: str) -> str:
    return f"gigflow.crawl:{source_id}:{spider}"


class _LockSession:
    """The one connection per process and database that holds this process's crawl locks (session advisory
    locks, released by PostgreSQL when the process dies). A batch crawls many sources at once, and a connection
    each would soon pass the server's connection limit. Opened with the first lock, closed with the last.

    A lost connection (a database restart, a terminated backend) takes its locks with it: the next use opens a
    new connection and re-takes them. One another process took meanwhile stays ``lost``; the run's heartbeat
    (fresh while this process lives) still keeps other crawls of the source out, and they release it again."""

    _sessions: dict[tuple[int, str], "_LockSession"] = {}

    def __init__(self, url: str):
        self.url = url
        self.conn: psycopg.Connection | None = None
        self.held: set[str] = set()
        self.lost: set[str] = set()
        self.mutex = threading.RLock()  # heartbeats run in a thread, locks are taken in the reactor's

    @classmethod
    def for_url(cls, url: str) -> "_LockSession":
        # Keyed by pid too: a forked child never shares its parent's connection.
        return cls._sessions.setdefault((os.getpid(), url), cls(url))

    def connection(self) -> psycopg.Connection:
        with self.mutex:
            if self.conn is None or self.conn.closed:
                if self.held:  # the connection died, and with it every lock it held: take them again
                    logger.warning("the crawl-lock connection was lost; re-taking %d crawl lock(s)", len(self.held))
                    self.lost |= self.held
                    self.held.clear()
                self.conn = connect(self.url, autocommit=True, row_factory=dict_row)
            for key in sorted(self.lost):
                if queries.try_crawl_lock(self.conn, key):
                    self.lost.discard(key)
                    self.held.add(key)
                    logger.info("crawl lock %s re-taken", key)
            return self.conn

    def call(self, query, *args):
        """``query(connection, *args)`` on the lock connection (opened, and the lost locks re-taken, first)."""
        with self.mutex:
            return query(self.connection(), *args)

    def lock(self, key: str) -> bool:
        with self.mutex:
            if key in self.held or key in self.lost:  # a second crawl in this process is refused by us
                return False
            locked = self.call(queries.try_crawl_lock, key)
            if locked:
                self.held.add(key)
            elif not self.held and not self.lost:
                self.close()
            return locked

    def unlock(self, key: str) -> None:
        with self.mutex:
            self.lost.discard(key)
            if key not in self.held:
                if not self.held and not self.lost:
                    self.close()
                return
            self.held.discard(key)
            try:
                if self.conn is not None and not self.conn.closed:
                    queries.release_crawl_lock(self.conn, key)
            except psycopg.Error:
                pass  # the connection is gone, and the lock with it
            if not self.held and not self.lost:
                self.close()

    def close(self) -> None:
        with self.mutex:
            if self.conn is not None:
                try:
                    self.conn.close()
                finally:
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

    def heartbeat(self, run_id: int, token: str | None = None) -> bool:
        """Beat for the run (re-taking the lock if its connection was lost); False when the run is no longer
        open and ours: its crawl must stop. Raises psycopg errors while the database cannot be reached."""
        try:
            owned = self.session.call(queries.heartbeat_run, run_id, token)
        except psycopg.OperationalError:  # a connection lost since the last beat: once more on a new one
            owned = self.session.call(queries.heartbeat_run, run_id, token)
        if self.key in self.session.lost:
            logger.warning("crawl lock %s is held by another process for now; run %s's heartbeat keeps other "
                           "crawls of the source out", self.key, run_id)
        return owned

    def close(self) -> None:
        self.session.unlock(self.key)


def owner() -> dict:
    """Who runs a new run: host and pid for people, and a random token the database checks before the run is
    finished or marks anything gone."""
    return {"host": socket.gethostname(), "pid": os.getpid(), "token": uuid.uuid4().hex}
