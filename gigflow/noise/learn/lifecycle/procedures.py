"""The lifecycle procedures, each a pydantic request/result pair over one stored procedure (sql/proc_*.sql), and
the lifecycle's other reads and writes of configurations and stored samples. The owner of the room's SQL: its
queries are the named queries of ``procedures.sql`` beside this module. The stored procedures stay whole-file
scripts in sql/proc_*.sql because gigflow.db.migrate executes each file as one statement on every upgrade (again
when its text changes), keyed by its file name."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool
from pydantic import BaseModel, Field

from gigflow.noise.model import NoiseFilter, SampleRef
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.sources.config import Strategy
from gigflow.sql import fetch_row, fetch_rows, fetch_value, fetch_values, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.noise.learn.lifecycle", "procedures.sql")[name]

MIN_SAMPLES, MAX_SAMPLES = NoiseSettings.min_samples, NoiseSettings.max_samples  # the learner's own bounds


class SelectSamples(BaseModel):
    configuration_id: int
    max_samples: int = Field(default=MAX_SAMPLES, ge=MIN_SAMPLES, le=MAX_SAMPLES)


class Sample(SampleRef):
    fetched_at: datetime | None = None


class SelectedSamples(BaseModel):
    configuration_id: int
    samples: list[Sample]
    skipped: list[str] = Field(default_factory=list)

    @property
    def usable(self) -> bool:
        return len(self.samples) >= MIN_SAMPLES

    def refs(self) -> list[SampleRef]:
        return [SampleRef(source_id=s.source_id, source_version_id=s.source_version_id, sha256=s.sha256, url=s.url)
                for s in self.samples]


@dataclass(frozen=True)
class CandidateSample:
    """select_samples and select_source_samples: the latest version of one URL, and whether it is HTML."""

    source_id: str
    source_version_id: int
    url: str
    sha256: str
    content_type: str | None
    fetched_at: datetime
    is_html: bool


def select_samples(pool: ConnectionPool, request: SelectSamples) -> SelectedSamples:
    """3 to 6 distinct usable HTML versions: the latest of each URL of the configuration's active sources."""
    with pool.connection() as conn:
        rows = fetch_rows(conn, CandidateSample, _sql("select_samples"),
                          {"configuration_id": request.configuration_id, "limit": 200})
    return _usable(request.configuration_id, rows, request.max_samples)


# What makes a stored version a usable sample, as messages say it.
USABLE_SAMPLE = (f"a usable sample is the latest stored version of a URL, HTML, with bytes no other sample has; "
                 f"learning needs {MIN_SAMPLES} to {MAX_SAMPLES}")


def select_source_samples(pool: ConnectionPool, source_id: str, configuration_id: int) -> SelectedSamples:
    """Like select_samples, for one source whatever its status (a preview)."""
    with pool.connection() as conn:
        rows = fetch_rows(conn, CandidateSample, _sql("select_source_samples"), {"source_id": source_id, "limit": 200})
    return _usable(configuration_id, rows, MAX_SAMPLES)


def _usable(configuration_id: int, rows: list[CandidateSample], max_samples: int) -> SelectedSamples:
    samples, skipped, seen = [], [], set()
    for row in rows:
        if not row.is_html:
            skipped.append(f"{row.url}: latest version is {row.content_type or 'untyped'}, not HTML")
        elif row.sha256 in seen:
            skipped.append(f"{row.url}: same bytes as another sample")
        elif len(samples) < max_samples:
            seen.add(row.sha256)
            samples.append(Sample(source_id=row.source_id, source_version_id=row.source_version_id,
                                  sha256=row.sha256, url=row.url, fetched_at=row.fetched_at))
    return SelectedSamples(configuration_id=configuration_id, samples=samples, skipped=skipped)


class ReconcilePage(BaseModel):
    after_id: int = 0
    limit: int = Field(default=100, ge=1, le=1000)


class ReconcileResult(BaseModel):
    configuration_ids: list[int]
    next_cursor: int | None  # None: the scan is complete


def reconcile_page(pool: ConnectionPool, request: ReconcilePage) -> ReconcileResult:
    with pool.connection() as conn:
        ids = fetch_values(conn, _sql("reconcile_page"), {"after_id": request.after_id, "limit": request.limit})
    return ReconcileResult(configuration_ids=ids, next_cursor=ids[-1] if len(ids) == request.limit else None)


class SaveFilter(BaseModel):
    configuration_id: int
    expected_token: int
    noise_filter: NoiseFilter


class SaveResult(BaseModel):
    saved: bool
    conflict: str | None = None
    token: int | None = None


def save_filter(pool: ConnectionPool, request: SaveFilter) -> SaveResult:
    """Race-safe: an old completion never overwrites a reset or a newer completion."""
    nf = request.noise_filter
    with pool.connection() as conn:
        return fetch_row(conn, SaveResult, _sql("save"), {
            "configuration_id": request.configuration_id,
            "expected_token": request.expected_token,
            "filter": Jsonb(nf.model_dump(mode="json")),
            "samples": Jsonb([s.model_dump(mode="json") for s in nf.samples]),
        })


class ResetFilter(BaseModel):
    configuration_id: int


class ResetResult(BaseModel):
    had_filter: bool
    token: int


def reset_filter(pool: ConnectionPool, request: ResetFilter) -> ResetResult:
    with pool.connection() as conn:
        result = fetch_row(conn, ResetResult, _sql("reset"), {"configuration_id": request.configuration_id})
    if result is None:
        raise LookupError(f"unknown configuration {request.configuration_id}")
    return result


class ConfigurationState(BaseModel):
    configuration_id: int
    company_id: int
    company: str = ""
    config_hash: str
    config: dict
    token: int
    strategies: list[Strategy] = Field(default_factory=list)

    def card_strategy(self) -> Strategy | None:
        """The strategy whose job-card rules crawls apply before the noise filter (href, else click)."""
        return next((s for kind in ("href", "click") for s in self.strategies if s.type == kind), None)


def configuration_state(pool: ConnectionPool, configuration_id: int) -> ConfigurationState:
    with pool.connection() as conn:
        state = fetch_row(conn, ConfigurationState, _sql("get_configuration"), {"configuration_id": configuration_id})
    if state is None:
        raise LookupError(f"unknown configuration {configuration_id}")
    return state


@dataclass(frozen=True)
class StoredSample:
    """read_sample: one stored version's body (bytes as the driver gives them) and content type."""

    id: int
    source_id: str
    url: str
    sha256: str
    body: bytes | None
    content_type: str | None


def read_sample(conn, source_version_id: int) -> StoredSample | None:
    return fetch_row(conn, StoredSample, _sql("read_sample"), {"id": source_version_id})


def seconds_until_next_cycle(pool: ConnectionPool, configuration_id: int, cycle_seconds: float) -> float:
    """Seconds until the configuration may start another automatic review cycle (<= 0: now)."""
    with pool.connection() as conn:
        wait = fetch_value(conn, _sql("seconds_until_next_cycle"),
                           {"configuration_id": configuration_id, "cycle_seconds": cycle_seconds})
    return wait if wait is not None else 0.0


def mark_automatic_cycle(pool: ConnectionPool, configuration_id: int) -> None:
    """Note that an automatic cycle started now (the token does not move)."""
    with pool.connection() as conn:
        conn.execute(_sql("mark_automatic_cycle"), {"configuration_id": configuration_id})
