"""robots.txt cached in PostgreSQL per origin with its fetch time, shared by all processes."""

from __future__ import annotations

from dataclasses import dataclass

from protego import Protego
from psycopg_pool import ConnectionPool

from gigflow.sql import load_sql

_SQL = "gigflow.politeness"


@dataclass(frozen=True)
class RobotsRecord:
    origin: str
    http_status: int
    body: str

    def parser(self) -> Protego | None:
        """RFC 9309: a 4xx file allows everything (None); a readable 2xx file is parsed."""
        if 400 <= self.http_status < 500:
            return None
        return Protego.parse(self.body)


def lookup(pool: ConnectionPool, origin: str, ttl: float) -> RobotsRecord | None:
    with pool.connection() as conn:
        row = conn.execute(load_sql(_SQL, "get_robots.sql"), {"origin": origin, "ttl": ttl}).fetchone()
    return RobotsRecord(row["origin"], row["http_status"], row["body"]) if row else None


def store(pool: ConnectionPool, record: RobotsRecord, politeness_key: str, crawl_delay: float | None) -> None:
    with pool.connection() as conn:
        conn.execute(load_sql(_SQL, "put_robots.sql"), {
            "origin": record.origin, "politeness_key": politeness_key, "http_status": record.http_status,
            "body": record.body, "crawl_delay": crawl_delay,
        })
