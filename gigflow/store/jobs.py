"""jobs and job_events: jobs keyed by (source, canonical key), never deleted (``gone_at``), with their history.

Queries: ``jobs.sql`` beside this module."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from psycopg.rows import tuple_row

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


# reads other rooms make of jobs (a command's listing, health's churn, maintenance's matching and documents)

@dataclass(frozen=True)
class JobEvent:
    """One event of a job, with the job it belongs to (``scrapy jobs history``)."""
    at: datetime
    job_id: int
    source_id: str
    canonical_key: str
    kind: str
    fields: str
    run_id: int | None


@dataclass(frozen=True)
class ListedJob:
    """One line of ``scrapy jobs``: the job and the sha256 of the version it was read from."""
    id: int
    key: str
    title: str
    employer: str | None
    location: str | None
    url: str | None
    source_id: str
    gone_at: datetime | None
    sha256: str | None
    source_version_id: int | None


@dataclass(frozen=True)
class LiveJobKeys:
    """A live job of a source with what its exact identity keys are built from."""
    id: int
    title: str
    url: str | None
    external_id: str | None
    parser_key: str
    apply_url: str | None
    location: str | None


@dataclass(frozen=True)
class PayloadJob:
    """A live payload job whose own Markdown is missing or stale: where its description sits in the payload."""
    id: int
    url: str | None
    source_version_id: int
    path: str


def job_history(conn, key: str, source_id: str | None) -> list[JobEvent]:
    """The events of the jobs ``key`` names (a job id, its canonical key, or the URL or external id), oldest first."""
    return fetch_rows(conn, JobEvent, _sql("job_history"),
                      {"key": key, "job_id": int(key) if key.isdigit() else None, "source_id": source_id})


def list_jobs(conn, source_id: str | None, include_gone: bool, after: int | None, limit: int) -> list[ListedJob]:
    """One keyset page of jobs in (source, title, id) order."""
    return fetch_rows(conn, ListedJob, _sql("list_jobs"), {"source_id": source_id, "include_gone": include_gone,
                                                           "after": after, "limit": limit})


def same_title_pairs(conn, source_id: str, run_id: int) -> list[tuple[str, str]]:
    """(earlier URL, new URL) of jobs first seen in this run under the title of an earlier job of the source."""
    with conn.cursor(row_factory=tuple_row) as cursor:
        return cursor.execute(_sql("same_title_pairs"), {"source_id": source_id, "run_id": run_id}).fetchall()


def live_job_keys(conn, source_id: str) -> list[LiveJobKeys]:
    return fetch_rows(conn, LiveJobKeys, _sql("live_job_keys"), {"source_id": source_id})


def undocumented_payload_jobs(conn, parser_keys: list[str], source_id: str | None) -> list[PayloadJob]:
    """Live jobs read from a payload (``parser_keys``) whose per-job Markdown is missing or older than their
    version, grouped by version."""
    return fetch_rows(conn, PayloadJob, _sql("undocumented_payload_jobs"),
                      {"parser_keys": parser_keys, "source_id": source_id})

@dataclass(frozen=True)
class JobFound:
    source_version_id: int | None
    title: str
    url: str | None
    fields: dict | None
    evidence: dict | None
    confidence: float | None
    parser_key: str | None


def all_jobs(conn) -> list[JobFound]:
    return fetch_rows(conn, JobFound, _sql("all_jobs"))
