"""jobs and job_events: jobs keyed by (source, canonical key), never deleted (``gone_at``), with their history.

Queries: ``jobs.sql`` beside this module."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gigflow.sql import fetch_row, fetch_rows, fetch_value, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.store", "jobs.sql")[name]


@dataclass(frozen=True)
class KeyedJob:
    """A job of the source carrying an external id: under which key it is stored, and its URL."""
    canonical_key: str
    url: str | None
    last_run_id: int | None


@dataclass(frozen=True)
class JobRow:
    """The stored job an upsert compares with what was extracted."""
    id: int
    title: str
    url: str | None
    external_id: str | None
    fields: dict | None
    parser_version: str | None
    gone_at: datetime | None


@dataclass(frozen=True)
class RunJobCounts:
    seen: int
    at_risk: int


def jobs_with_external_id(conn, source_id: str, external_id: str) -> list[KeyedJob]:
    return fetch_rows(conn, KeyedJob, _sql("jobs_with_external_id"),
                      {"source_id": source_id, "external_id": external_id})


def rekey_job(conn, source_id: str, old_key: str, new_key: str) -> None:
    conn.execute(_sql("rekey_job"), {"source_id": source_id, "old_key": old_key, "new_key": new_key})


def find_job(conn, params: dict) -> JobRow | None:
    return fetch_row(conn, JobRow, _sql("find_job"), params)


def insert_job(conn, params: dict) -> int | None:
    """The new job's id; None when another writer inserted the key meanwhile."""
    return fetch_value(conn, _sql("insert_job"), params)


def update_job(conn, params: dict) -> bool:
    """Write the job's new content; False (nothing written) when only its sighting would change."""
    return conn.execute(_sql("update_job"), params).fetchone() is not None


def touch_job(conn, job_id: int, run_id: int) -> None:
    """Record that this run saw the unchanged job (a narrow, HOT-friendly update)."""
    conn.execute(_sql("touch_job"), {"id": job_id, "run_id": run_id})


def insert_job_event(conn, job_id: int, run_id: int | None, kind: str, fields: list[str]) -> None:
    conn.execute(_sql("insert_job_event"), {"job_id": job_id, "run_id": run_id, "kind": kind, "fields": fields})


def run_job_counts(conn, source_id: str, spider: str, run_id: int) -> RunJobCounts:
    """Jobs this run saw, and jobs earlier runs of this strategy saw that this one did not (at risk of gone)."""
    return fetch_row(conn, RunJobCounts, _sql("run_job_counts"),
                     {"source_id": source_id, "spider": spider, "run_id": run_id})


def mark_gone(conn, source_id: str, spider: str, run_id: int, owner_token: str) -> int:
    """Mark gone the jobs earlier runs of this strategy saw and this complete run did not; how many. Nothing is
    marked unless ``owner_token`` owns the run and the run is still open (checked in the same statement)."""
    return conn.execute(_sql("mark_gone"), {"source_id": source_id, "run_id": run_id, "spider": spider,
                                            "token": owner_token}).rowcount
