"""The runs room's tables: crawl_runs, the crawl lock (a session advisory lock per source and strategy), and the
source's run counters and next crawl time (``sources.unchanged_runs``, ``sources.next_crawl_at``, written only
here). Every runs module calls these functions; the SQL is ``queries.sql`` beside this module."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from psycopg.types.json import Jsonb

from gigflow.sql import fetch_row, fetch_rows, fetch_value, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.runs", "queries.sql")[name]


@dataclass(frozen=True)
class RunOwner:
    """A run and who runs it: host and pid for people, and the last heartbeat."""
    id: int
    source_id: str
    spider: str
    owner_host: str | None
    owner_pid: int | None
    started_at: datetime
    heartbeat_at: datetime | None


@dataclass(frozen=True)
class OpenRun(RunOwner):
    """An unfinished run and how long its owner has been silent (seconds since its heartbeat, or its start)."""
    silent_seconds: float | None


@dataclass(frozen=True)
class UnchangedRuns:
    unchanged_runs: int
    status: str


def try_crawl_lock(conn, key: str) -> bool:
    return fetch_value(conn, _sql("try_crawl_lock"), {"key": key})


def release_crawl_lock(conn, key: str) -> None:
    conn.execute(_sql("release_crawl_lock"), {"key": key})


def heartbeat_run(conn, run_id: int, token: str | None) -> bool:
    """False when the run is no longer open and ours (its crawl must stop)."""
    return fetch_value(conn, _sql("heartbeat_run"), {"run_id": run_id, "token": token}) is not None


def running_run(conn, source_id: str, spider: str) -> RunOwner | None:
    return fetch_row(conn, RunOwner, _sql("running_run"), {"source_id": source_id, "spider": spider})


def start_run(conn, source_id: str, spider: str, host: str, pid: int, token: str) -> int:
    return fetch_value(conn, _sql("start_run"),
                       {"source_id": source_id, "spider": spider, "host": host, "pid": pid, "token": token})


def open_runs(conn, source_id: str, spider: str) -> list[OpenRun]:
    return fetch_rows(conn, OpenRun, _sql("open_runs"), {"source_id": source_id, "spider": spider})


def abandon_runs(conn, source_id: str, spider: str, run_id: int, dead: list[int]) -> list[RunOwner]:
    return fetch_rows(conn, RunOwner, _sql("abandon_runs"),
                      {"source_id": source_id, "spider": spider, "run_id": run_id, "dead": dead})


def stale_runs(conn) -> list[OpenRun]:
    return fetch_rows(conn, OpenRun, _sql("stale_runs"))


def sweep_abandon_runs(conn, runs: list[RunOwner]) -> list[RunOwner]:
    """Close ``runs`` unless one beat since it was read (its heartbeat moved); the runs closed."""
    return fetch_rows(conn, RunOwner, _sql("sweep_abandon_runs"),
                      {"ids": [run.id for run in runs], "heartbeats": [run.heartbeat_at for run in runs]})


def finish_run(conn, run_id: int, token: str | None, outcome: str, stats: dict) -> bool:
    """False (nothing written) when the run is no longer open under ``token``."""
    return fetch_value(conn, _sql("finish_run"), {
        "run_id": run_id, "stats": Jsonb(stats), "outcome": outcome, "token": token}) is not None


def last_complete_run_stats(conn, source_id: str, spider: str, run_id: int) -> dict | None:
    """The stats of the spider's last complete run of the source before ``run_id`` (None: no such run)."""
    return fetch_value(conn, _sql("last_complete_run_stats"),
                       {"source_id": source_id, "spider": spider, "run_id": run_id})


def count_unchanged_runs(conn, source_id: str, changed: bool) -> UnchangedRuns | None:
    return fetch_row(conn, UnchangedRuns, _sql("count_unchanged_runs"), {"source_id": source_id, "changed": changed})


def failed_in_a_row(conn, source_id: str, run_id: int, limit: int) -> int:
    return fetch_value(conn, _sql("failed_in_a_row"), {"source_id": source_id, "run_id": run_id, "limit": limit})


def set_next_crawl(conn, source_id: str, next_crawl_at: datetime) -> None:
    conn.execute(_sql("set_next_crawl"), {"source_id": source_id, "next_crawl_at": next_crawl_at})

@dataclass(frozen=True)
class RunOutcome:
    outcome: str | None
    stats: dict | None


def latest_run_outcome(conn) -> RunOutcome | None:
    return fetch_row(conn, RunOutcome, _sql("latest_run_outcome"))
