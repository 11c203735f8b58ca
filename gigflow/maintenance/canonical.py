"""The owner of the canonical-job tables: canonical_jobs, canonical_links, canonical_separations, canonical_events
and link_checks. Resolution, freshness, link checks and the export read and write them through these functions,
each over one query of ``canonical.sql`` beside this module; the caller holds the connection (and so the
transaction). Reads return frozen rows, one type per query's columns."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from gigflow.sql import fetch_row, fetch_rows, fetch_value, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.maintenance", "canonical.sql")[name]


# Resolution.

@dataclass(frozen=True)
class UnlinkedJob:
    """unlinked_jobs: a live per-source job no canonical job holds yet, with its source's company."""

    id: int
    source_id: str
    title: str
    url: str | None
    external_id: str | None
    parser_key: str
    fields: dict | None
    company: str


@dataclass(frozen=True)
class ExactCandidate:
    """exact_candidates: a sighting sharing an identity key with the job being resolved."""

    canonical_id: int
    job_id: int
    match_keys: list[str]


@dataclass(frozen=True)
class FuzzyCandidate:
    """fuzzy_candidates: a live sighting of the same employer, with what the fuzzy score reads."""

    canonical_id: int
    job_id: int
    simhash: int | None
    source_id: str
    parser_key: str
    title: str
    location: str | None
    description: str | None


@dataclass(frozen=True)
class Link:
    """find_link: one sighting's link, its canonical job's employer key and how many sightings that job has."""

    job_id: int
    canonical_id: int
    match_keys: list[str]
    simhash: int | None
    employer_key: str | None
    sightings: int


def unlinked_jobs(conn, source_id: str | None) -> list[UnlinkedJob]:
    """Live jobs (of one source, or all) not linked yet, oldest first."""
    return fetch_rows(conn, UnlinkedJob, _sql("unlinked_jobs"), {"source_id": source_id})


def lock_employer(conn, employer_key: str) -> None:
    """Hold the employer's resolution lock until the transaction ends."""
    conn.execute(_sql("lock_employer"), {"employer_key": employer_key})


def is_linked(conn, job_id: int) -> bool:
    return fetch_value(conn, _sql("is_linked"), {"job_id": job_id})


def exact_candidates(conn, keys: list[str], job_id: int) -> list[ExactCandidate]:
    return fetch_rows(conn, ExactCandidate, _sql("exact_candidates"), {"keys": keys, "job_id": job_id})


def fuzzy_candidates(conn, employer_key: str, job_id: int, limit: int) -> list[FuzzyCandidate]:
    return fetch_rows(conn, FuzzyCandidate, _sql("fuzzy_candidates"),
                      {"employer_key": employer_key, "job_id": job_id, "limit": limit})


def separated(conn, a: int, b: int) -> bool:
    """Whether an unmerge keeps canonical jobs ``a`` and ``b`` apart."""
    return fetch_value(conn, _sql("separated"), {"a": a, "b": b})


def fold_canonical(conn, into: int, from_: int) -> None:
    """Move ``from_``'s sightings to ``into``; ``from_`` is remembered as merged into it."""
    conn.execute(_sql("fold_canonical"), {"into": into, "from": from_})


def insert_canonical(conn, employer_key: str | None, spread_seconds: float) -> int:
    """A new canonical job, first checked within ``spread_seconds``; its id."""
    return fetch_value(conn, _sql("insert_canonical"), {"employer_key": employer_key,
                                                        "spread_seconds": spread_seconds})


def insert_link(conn, job_id: int, canonical_id: int, evidence: list[dict], score: float, match_keys: list[str],
                simhash: int | None) -> None:
    conn.execute(_sql("insert_link"), {"job_id": job_id, "canonical_id": canonical_id, "evidence": Jsonb(evidence),
                                       "score": score, "match_keys": match_keys, "simhash": simhash})


def find_link(conn, job_id: int) -> Link | None:
    """The sighting's link, its row locked; None when the job is not linked."""
    return fetch_row(conn, Link, _sql("find_link"), {"job_id": job_id})


def separate_link(conn, job_id: int, old: int, new: int) -> None:
    """Move the sighting from ``old`` to ``new`` for good (the separation is remembered)."""
    conn.execute(_sql("separate_link"), {"job_id": job_id, "old": old, "new": new})


def add_event(conn, canonical_id: int, kind: str, detail: dict) -> None:
    conn.execute(_sql("insert_event"), {"canonical_id": canonical_id, "kind": kind, "detail": Jsonb(detail)})


# Freshness, quality and the publish gate.

@dataclass(frozen=True)
class CanonicalState:
    """canonical_state: a live canonical job with what freshness and quality read (its best sighting's title, URL
    and fields; over all sightings the latest one, sources, best confidence, liveness and validThrough values)."""

    id: int
    link_status: str
    expired_at: datetime | None
    stale_at: datetime | None
    published_at: datetime | None
    quality_score: int | None
    title: str
    url: str | None
    fields: dict | None
    last_seen: datetime
    sources: int
    confidence: float
    live: bool
    valid_through: list[str]
    closed_notice: str | None  # a live sighting's page says the vacancy is closed
    age_days: Decimal
    now: datetime


def canonical_state_page(conn, after: int, limit: int) -> list[CanonicalState]:
    """The live canonical jobs after id ``after``, at most ``limit``, in id order."""
    return fetch_rows(conn, CanonicalState, _sql("canonical_state"), {"after": after, "limit": limit})


def write_state(conn, state: dict) -> None:
    """``state``: id, expired_at, stale_at, quality_score, quality_parts (Jsonb) and published_at."""
    conn.execute(_sql("write_state"), state)


# Link checks.

@dataclass(frozen=True)
class CheckTarget:
    """claim_due_checks and check_targets: a canonical job and its best live sighting's job and apply URLs."""

    id: int
    url: str | None
    apply_url: str | None


def count_checkable(conn) -> int:
    return fetch_value(conn, _sql("count_checkable"))


def claim_due_checks(conn, limit: int, claim_seconds: float) -> list[CheckTarget]:
    return fetch_rows(conn, CheckTarget, _sql("claim_due_checks"), {"limit": limit, "claim_seconds": claim_seconds})


def check_targets(conn, canonical_ids: list[int]) -> list[CheckTarget]:
    return fetch_rows(conn, CheckTarget, _sql("check_targets"), {"ids": canonical_ids})


def hours_since_first_failure(conn, canonical_id: int, role: str, url: str) -> Decimal | None:
    """Hours since the first of this URL's failed checks in a row; None when its last check did not fail."""
    return fetch_value(conn, _sql("first_failure_in_row"), {"canonical_id": canonical_id, "role": role, "url": url})


def insert_link_check(conn, check: dict) -> None:
    """``check``: canonical_id, role, url, method, status, outcome, target and error."""
    conn.execute(_sql("insert_link_check"), check)


def lock_link_status(conn, canonical_id: int) -> str | None:
    """The canonical job's link status, its row locked until the transaction ends."""
    return fetch_value(conn, _sql("lock_canonical"), {"id": canonical_id})


def set_link_status(conn, canonical_id: int, status: str, next_seconds: float) -> None:
    conn.execute(_sql("set_link_status"), {"id": canonical_id, "status": status, "next_seconds": next_seconds})


# Export.

@dataclass(frozen=True)
class ExportRow:
    """export_canonical: a canonical job with its best sighting's facts, every sighting and the latest checks."""

    id: int
    title: str | None
    employer: str | None
    location: str | None
    url: str | None
    apply_url: str | None
    fields: dict | None
    evidence: dict | None
    description_markdown: str | None
    link_status: str
    expired_at: datetime | None
    stale_at: datetime | None
    quality_score: int | None
    quality_parts: Any
    published_at: datetime | None
    first_seen: datetime | None
    last_seen: datetime | None
    sightings: list[dict]
    link_checks: list[dict]


def export_rows(conn, *, source_id: str | None, published: bool, since: Any, canonical_id: int | None,
                batch: int) -> Iterator[ExportRow]:
    """The canonical jobs to export through a server-side cursor (``batch`` rows a trip: memory stays flat); the
    caller holds the transaction the cursor lives in."""
    with conn.cursor(name="gigflow_export", row_factory=class_row(ExportRow)) as cursor:
        cursor.itersize = batch
        cursor.execute(_sql("export_canonical"), {"source_id": source_id, "published": published, "since": since,
                                                  "canonical_id": canonical_id})
        yield from cursor
