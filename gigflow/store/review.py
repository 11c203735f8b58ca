"""What the review app (gigflow.ui) reads: the sources table, a source's page (its runs and jobs), a job's page (its
history and canonical link) and the noise review page. One query per function, each returning frozen rows: a field
per column, so a renamed or missing column fails where the row is built, not as a blank cell in a template.

Queries: ``review.sql`` beside this module. Each function takes an open connection; the app holds the pool."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gigflow.sql import fetch_row, fetch_rows, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.store", "review.sql")[name]


@dataclass(frozen=True)
class SourceListRow:
    """sources_page, then health from the health report (``health`` and ``mean_confidence`` None until the review
    app adds them)."""

    id: str
    company: str
    status: str
    status_reason: str | None
    url: str
    next_crawl_at: datetime | None
    configuration_id: int
    jobs: int
    last_outcome: str | None
    last_spider: str | None
    last_finished_at: datetime | None
    health: str | None = None
    mean_confidence: float | None = None


@dataclass(frozen=True)
class SourceRow:
    """source: the source page's header."""

    id: str
    status: str
    status_reason: str | None
    url: str
    parser_key: str | None
    next_crawl_at: datetime | None
    unchanged_runs: int
    created_at: datetime
    company: str
    configuration_id: int
    canonical_url: str
    strategies: list | dict
    config_hash: str
    token: int
    noise_filter: dict | None


@dataclass(frozen=True)
class RunRow:
    """source_runs: one crawl run with its counts and health; ``health`` is the label the page adds."""

    id: int
    spider: str
    started_at: datetime
    finished_at: datetime | None
    outcome: str | None
    owner_host: str | None
    owner_pid: int | None
    heartbeat_at: datetime | None
    jobs_new: int
    jobs_updated: int
    jobs_unchanged: int
    jobs_gone: int
    versions_new: int
    warnings: int
    mean_confidence: float | None
    complete: bool | None
    drift: list
    health: str | None = None


@dataclass(frozen=True)
class SourceJobRow:
    """source_jobs: one job in the source page's table."""

    id: int
    title: str
    url: str | None
    location: str | None
    confidence: float
    parser_key: str
    first_seen: datetime
    last_seen: datetime
    gone_at: datetime | None


@dataclass(frozen=True)
class JobRow:
    """job: the job page's job, its source and the Markdown it was read from."""

    id: int
    title: str
    url: str | None
    external_id: str | None
    fields: dict
    evidence: dict
    confidence: float
    parser_key: str
    parser_version: str
    first_seen: datetime
    last_seen: datetime
    gone_at: datetime | None
    source_id: str
    company: str
    version_id: int | None
    version_url: str | None
    fetched_at: datetime | None
    markdown: str | None
    document_path: str | None
    payload_job: bool


@dataclass(frozen=True)
class JobEventRow:
    """job_events: one change of a job, with its run's outcome."""

    at: datetime
    kind: str
    fields: list
    run_id: int | None
    run_outcome: str | None


@dataclass(frozen=True)
class CanonicalLinkRow:
    """job_canonical: the canonical job a sighting is linked to, the link's score and the canonical events."""

    canonical_id: int
    score: float
    evidence: dict
    events: list


@dataclass(frozen=True)
class ConfigurationRow:
    """configuration: the noise review page's header."""

    id: int
    canonical_url: str
    config_hash: str
    token: int
    company: str
    sources: list[str]


@dataclass(frozen=True)
class SampleVersionRow:
    """sample_version: one stored version of a configuration's source, with its body."""

    id: int
    source_id: str
    url: str
    content_type: str | None
    body: bytes
    fetched_at: datetime


def sources_page(conn, *, status: str | None, pattern: str | None, after: str | None,
                 limit: int) -> list[SourceListRow]:
    """One keyset page of sources (ids after ``after``) with this status and whose id, company or URL matches the
    ILIKE ``pattern`` (None: any)."""
    return fetch_rows(conn, SourceListRow, _sql("sources_page"),
                      {"status": status, "pattern": pattern, "after": after, "limit": limit})


def source(conn, source_id: str) -> SourceRow | None:
    return fetch_row(conn, SourceRow, _sql("source"), {"id": source_id})


def source_runs(conn, source_id: str, limit: int) -> list[RunRow]:
    return fetch_rows(conn, RunRow, _sql("source_runs"), {"id": source_id, "limit": limit})


def source_jobs(conn, source_id: str, limit: int) -> list[SourceJobRow]:
    return fetch_rows(conn, SourceJobRow, _sql("source_jobs"), {"id": source_id, "limit": limit})


def job(conn, job_id: int, payload_parsers: list[str]) -> JobRow | None:
    """The job; ``payload_parsers``: the parsers whose jobs share one payload (their Markdown is per job)."""
    return fetch_row(conn, JobRow, _sql("job"), {"id": job_id, "payload_parsers": payload_parsers})


def job_events(conn, job_id: int, limit: int) -> list[JobEventRow]:
    return fetch_rows(conn, JobEventRow, _sql("job_events"), {"id": job_id, "limit": limit})


def job_canonical(conn, job_id: int, limit: int) -> CanonicalLinkRow | None:
    """The job's canonical link with the canonical job's latest ``limit`` events; None before the resolver ran."""
    return fetch_row(conn, CanonicalLinkRow, _sql("job_canonical"), {"id": job_id, "limit": limit})


def configuration(conn, configuration_id: int) -> ConfigurationRow | None:
    return fetch_row(conn, ConfigurationRow, _sql("configuration"), {"id": configuration_id})


def sample_version(conn, configuration_id: int, version_id: int) -> SampleVersionRow | None:
    """A stored version of one of the configuration's sources (None for another configuration's)."""
    return fetch_row(conn, SampleVersionRow, _sql("sample_version"),
                     {"configuration_id": configuration_id, "version_id": version_id})
