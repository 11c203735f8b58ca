"""The rows the review app reads from its own queries (sql/), one frozen dataclass per query: a field per column,
so a renamed or missing column fails where the row is built, not as a blank cell in a template."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class SourceListRow:
    """sources_page.sql, then health from the library (``health`` and ``mean_confidence`` None until then)."""

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
    """source.sql: the source page's header."""

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
    """source_runs.sql: one crawl run with its counts and health; ``health`` is the label the page adds."""

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
    """source_jobs.sql: one job in the source page's table."""

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
    """job.sql: the job page's job, its source and the Markdown it was read from."""

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
    """job_events.sql: one change of a job, with its run's outcome."""

    at: datetime
    kind: str
    fields: list
    run_id: int | None
    run_outcome: str | None


@dataclass(frozen=True)
class CanonicalLinkRow:
    """job_canonical.sql: the canonical job a sighting is linked to, the link's score and the canonical events."""

    canonical_id: int
    score: float
    evidence: dict
    events: list


@dataclass(frozen=True)
class ConfigurationRow:
    """configuration.sql: the noise review page's header."""

    id: int
    canonical_url: str
    config_hash: str
    token: int
    company: str
    sources: list[str]


@dataclass(frozen=True)
class SampleVersionRow:
    """sample_version.sql: one stored version of a configuration's source, with its body."""

    id: int
    source_id: str
    url: str
    content_type: str | None
    body: bytes
    fetched_at: datetime
