"""A process's liveness key: a session advisory lock held on one connection for as long as the process lives.
PostgreSQL drops it the moment that connection ends (a killed process included), so anyone can ask the database
whether the holder of a lease or a claim is alive (``gigflow_holder_alive(key)``, migration 0021) instead of
waiting for a timeout."""

from __future__ import annotations

import os
import secrets
import threading

import psycopg
from psycopg.rows import dict_row

from gigflow.db import queries
from gigflow.db.connection import connect


class Liveness:
    """One connection per process and database holding this process's liveness key; leases are acquired on it,
    so a lease is granted only while the key is held. A lost connection is replaced (and the key re-taken) on the
    next acquire."""

    _by_process: dict[tuple[int, str], "Liveness"] = {}
    _guard = threading.Lock()

    def __init__(self, url: str):
        self.url = url
        self.key = secrets.randbits(63)
        self.conn: psycopg.Connection | None = None
        self.mutex = threading.Lock()

    @classmethod
    def for_url(cls, url: str) -> "Liveness":
        # Keyed by pid: a forked child has its own key and connection.
        with cls._guard:
            return cls._by_process.setdefault((os.getpid(), url), cls(url))

    def call(self, query, *args, **kwargs):
        """``query(connection, liveness key, *args, **kwargs)`` on the connection holding the key (opened, and the
        key taken, first); a lost connection is retried once on a new one."""
        with self.mutex:
            for attempt in (1, 2):
                if self.conn is None or self.conn.closed:
                    self.conn = connect(self.url, autocommit=True, row_factory=dict_row)
                    if not queries.take_liveness_lock(self.conn, self.key):
                        self.key = secrets.randbits(63)  # (never seen) someone holds ours: take another
                        self.conn.close()
                        continue
                try:
                    return query(self.conn, self.key, *args, **kwargs)
                except psycopg.OperationalError:
                    if attempt == 2 or not self.conn.closed:
                        raise  # a lost connection is retried once on a new one

    def ensure(self) -> int:
        """This process's liveness key, its lock checked (and re-taken on a new connection if it was lost)."""
        self.call(queries.echo_liveness_key)
        return self.key
