"""The shared limiter: leases per politeness key in PostgreSQL, so every process on every machine shares one
budget per key. Each process acquires its leases on one connection that holds its liveness key (a session
advisory lock): when the process dies the lock goes with its connection, and the next acquirer of a full key
deletes the dead holder's leases at once (migration 0021). Leases also expire, for a holder that lives but hangs."""

from __future__ import annotations

import os
import random
import socket
from dataclasses import dataclass

from psycopg_pool import ConnectionPool

from gigflow.db.liveness import Liveness

from gigflow.politeness import queries
from gigflow.politeness.keys import Policy


@dataclass(frozen=True)
class Lease:
    id: int
    policy: Policy

    @property
    def key(self) -> str:
        return self.policy.key


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with jitter per key: base * 2**(errors-1), at most ``cap``, times 1..1+jitter."""

    base: float = 10.0
    cap: float = 600.0
    jitter: float = 0.25

    def delay(self, errors: int, rng: random.Random | None = None) -> float:
        if errors <= 0:
            return 0.0
        raw = min(self.cap, self.base * 2 ** (errors - 1))
        return min(self.cap, raw * (1 + (rng or random).uniform(0, self.jitter)))


def default_holder() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class Limiter:
    def __init__(self, pool: ConnectionPool, *, lease_seconds: float = 120.0, poll_seconds: float = 0.1,
                 backoff: Backoff | None = None, holder: str | None = None):
        self.pool = pool
        self.lease_seconds = lease_seconds
        self.poll_seconds = poll_seconds
        self.backoff = backoff or Backoff()
        self.holder = holder or default_holder()
        self.liveness = Liveness.for_url(pool.conninfo)

    def try_acquire(self, policy: Policy, url: str | None = None) -> Lease | float:
        """A Lease, or the seconds to wait before asking again."""
        grant = self.liveness.call(
            queries.acquire_lease, key=policy.key, interval=policy.interval, concurrency=policy.concurrency,
            lease_seconds=self.lease_seconds, poll_seconds=self.poll_seconds, holder=self.holder, url=url)
        if grant.lease_id is not None:
            return Lease(id=grant.lease_id, policy=policy)
        return max(0.0, grant.wait_seconds)

    def release(self, lease: Lease) -> None:
        with self.pool.connection() as conn:
            queries.release_lease(conn, lease.id, lease.policy.interval, hold=lease.policy.concurrency == 1)

    def record_success(self, key: str) -> None:
        with self.pool.connection() as conn:
            queries.record_success(conn, key)

    def record_failure(self, key: str, retry_after: float | None = None) -> float:
        """Push the key's next allowed time by the larger of Retry-After and the backoff; returns the delay."""
        with self.pool.connection() as conn, conn.transaction():
            errors = queries.record_failure(conn, key)
            delay = max(retry_after or 0.0, self.backoff.delay(errors))
            queries.push_next_allowed(conn, key, delay)
        return delay
