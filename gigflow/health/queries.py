"""Health's tables, run_health and listing_snapshots, and health's reads around them (a source's runs, state and
status history). Every health module calls these functions; the SQL is ``queries.sql`` beside this module.

A source's state and status history are read, and written, through gigflow.sources.repository, their owner."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from psycopg.types.json import Jsonb

from gigflow.sql import fetch_row, fetch_rows, fetch_values, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.health", "queries.sql")[name]


@dataclass(frozen=True)
class RecentRun:
    """A finished run with its health and drift (None: no health row)."""
    id: int
    spider: str
    outcome: str | None
    stats: dict | None
    finished_at: datetime
    health: dict | None
    drift: list | None
    complete: bool | None


@dataclass(frozen=True)
class LastRunHealth:
    """A source's last finished run as `sources list` shows it (the JSON figures as text)."""
    source_id: str
    run_id: int
    outcome: str | None
    run_jobs: str | None
    mean_confidence: str | None
    drift: list | None
    script_rendered: str | None


@dataclass(frozen=True)
class CompleteRunLinks:
    """The job links of a strategy's last complete run: what a repair must reproduce."""
    run_id: int
    job_links: list[str] | None


@dataclass(frozen=True)
class ListingSnapshot:
    id: int
    run_id: int | None
    url: str
    content_type: str | None
    body: bytes
    fetched_at: datetime


# -- run_health ----------------------------------------------------------------------------------------------

def insert_run_health(conn, run_id: int, source_id: str, spider: str, complete: bool, health: dict,
                      drift: list[dict]) -> None:
    conn.execute(_sql("insert_run_health"), {
        "run_id": run_id, "source_id": source_id, "spider": spider, "complete": complete,
        "health": Jsonb(health), "drift": Jsonb(drift)})


def recent_complete_health(conn, source_id: str, spider: str, run_id: int, limit: int) -> list[dict]:
    """The health figures of the spider's latest ``limit`` complete runs of the source but ``run_id``."""
    return fetch_values(conn, _sql("recent_complete_health"),
                        {"source_id": source_id, "spider": spider, "run_id": run_id, "limit": limit})


def last_complete_job_links(conn, source_id: str, spider: str) -> CompleteRunLinks | None:
    return fetch_row(conn, CompleteRunLinks, _sql("last_complete_job_links"),
                     {"source_id": source_id, "spider": spider})


def list_health(conn, source_ids: list[str]) -> list[LastRunHealth]:
    return fetch_rows(conn, LastRunHealth, _sql("list_health"), {"ids": source_ids})


def recent_runs(conn, source_id: str, limit: int) -> list[RecentRun]:
    return fetch_rows(conn, RecentRun, _sql("recent_runs"), {"source_id": source_id, "limit": limit})


# -- listing_snapshots ---------------------------------------------------------------------------------------

def insert_snapshot(conn, source_id: str, run_id: int, url: str, sha256: str, content_type: str | None,
                    body: bytes) -> None:
    conn.execute(_sql("insert_snapshot"), {"source_id": source_id, "run_id": run_id, "url": url, "sha256": sha256,
                                           "content_type": content_type, "body": body})


def prune_snapshots(conn, source_id: str, keep: int) -> None:
    """Keep the newest ``keep`` snapshots of each listing URL of the source."""
    conn.execute(_sql("prune_snapshots"), {"source_id": source_id, "keep": keep})


def latest_snapshots(conn, source_id: str) -> list[ListingSnapshot]:
    return fetch_rows(conn, ListingSnapshot, _sql("latest_snapshots"), {"source_id": source_id})

@dataclass(frozen=True)
class ListingBody:
    url: str
    body: bytes


def listing_bodies(conn) -> list[ListingBody]:
    return fetch_rows(conn, ListingBody, _sql("listing_bodies"))
