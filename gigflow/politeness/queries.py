"""Politeness's tables: politeness_keys and politeness_leases (the shared limiter) and robots_cache (the shared
robots.txt copies, whose Crawl-delay lengthens a key's interval). The limiter and the robots.txt middleware call
these functions; the SQL is ``queries.sql`` beside this module."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gigflow.sql import fetch_row, fetch_value, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.politeness", "queries.sql")[name]


@dataclass(frozen=True)
class LeaseGrant:
    """A lease on the key (``lease_id``), or none and the seconds to wait before asking again."""
    lease_id: int | None
    wait_seconds: float | None


@dataclass(frozen=True)
class CachedRobots:
    """The shared copy of an origin's robots.txt (an empty body for a 4xx or 3xx answer)."""
    origin: str
    http_status: int
    body: str
    crawl_delay: float | None
    fetched_at: datetime


def acquire_lease(conn, holder_lock: int, *, key: str, interval: float, concurrency: int, lease_seconds: float,
                  poll_seconds: float, holder: str, url: str | None) -> LeaseGrant:
    """On the liveness connection holding ``holder_lock`` (gigflow.db.liveness): a lease is granted only while
    its holder's key is held."""
    return fetch_row(conn, LeaseGrant, _sql("acquire_lease"), {
        "key": key, "interval": interval, "concurrency": concurrency, "lease_seconds": lease_seconds,
        "poll_seconds": poll_seconds, "holder": holder, "url": url, "holder_lock": holder_lock})


def release_lease(conn, lease_id: int, interval: float, hold: bool) -> None:
    """Give the lease back; with ``hold`` the key's next start also waits ``interval`` (or its Crawl-delay)."""
    conn.execute(_sql("release_lease"), {"lease_id": lease_id, "interval": interval, "hold": hold})


def record_success(conn, key: str) -> None:
    conn.execute(_sql("record_success"), {"key": key})


def record_failure(conn, key: str) -> int:
    """One more consecutive error on the key; how many in a row now."""
    return fetch_value(conn, _sql("record_failure"), {"key": key})


def push_next_allowed(conn, key: str, delay: float) -> None:
    conn.execute(_sql("push_next_allowed"), {"key": key, "delay": delay})


def get_robots(conn, origin: str, ttl: float) -> CachedRobots | None:
    """The origin's shared robots.txt copy, unless older than ``ttl`` seconds."""
    return fetch_row(conn, CachedRobots, _sql("get_robots"), {"origin": origin, "ttl": ttl})


def put_robots(conn, *, origin: str, politeness_key: str, http_status: int, body: str,
               crawl_delay: float | None) -> None:
    conn.execute(_sql("put_robots"), {"origin": origin, "politeness_key": politeness_key,
                                      "http_status": http_status, "body": body, "crawl_delay": crawl_delay})
