"""The lifecycle procedures, each a pydantic request/result pair over one stored procedure (sql/proc_*.sql)."""

from __future__ import annotations

from datetime import datetime

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool
from pydantic import BaseModel, Field

from gigflow.noise.model import NoiseFilter, SampleRef
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.sources.config import Strategy
from gigflow.sql import load_sql

_SQL = "gigflow.noise.learn.lifecycle"
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


def select_samples(pool: ConnectionPool, request: SelectSamples) -> SelectedSamples:
    """3 to 6 distinct usable HTML versions: the latest of each URL of the configuration's active sources."""
    with pool.connection() as conn:
        rows = conn.execute(load_sql(_SQL, "select_samples.sql"),
                            {"configuration_id": request.configuration_id, "limit": 200}).fetchall()
    return _usable(request.configuration_id, rows, request.max_samples)


# What makes a stored version a usable sample, as messages say it.
USABLE_SAMPLE = (f"a usable sample is the latest stored version of a URL, HTML, with bytes no other sample has; "
                 f"learning needs {MIN_SAMPLES} to {MAX_SAMPLES}")


def select_source_samples(pool: ConnectionPool, source_id: str, configuration_id: int) -> SelectedSamples:
    """Like select_samples, for one source whatever its status (a preview)."""
    with pool.connection() as conn:
        rows = conn.execute(load_sql(_SQL, "select_source_samples.sql"),
                            {"source_id": source_id, "limit": 200}).fetchall()
    return _usable(configuration_id, rows, MAX_SAMPLES)


def _usable(configuration_id: int, rows, max_samples: int) -> SelectedSamples:
    samples, skipped, seen = [], [], set()
    for row in rows:
        if not row["is_html"]:
            skipped.append(f"{row['url']}: latest version is {row['content_type'] or 'untyped'}, not HTML")
        elif row["sha256"] in seen:
            skipped.append(f"{row['url']}: same bytes as another sample")
        elif len(samples) < max_samples:
            seen.add(row["sha256"])
            samples.append(Sample(source_id=row["source_id"], source_version_id=row["source_version_id"],
                                  sha256=row["sha256"], url=row["url"], fetched_at=row["fetched_at"]))
    return SelectedSamples(configuration_id=configuration_id, samples=samples, skipped=skipped)


class ReconcilePage(BaseModel):
    after_id: int = 0
    limit: int = Field(default=100, ge=1, le=1000)


class ReconcileResult(BaseModel):
    configuration_ids: list[int]
    next_cursor: int | None  # None: the scan is complete


def reconcile_page(pool: ConnectionPool, request: ReconcilePage) -> ReconcileResult:
    with pool.connection() as conn:
        rows = conn.execute(load_sql(_SQL, "reconcile_page.sql"),
                            {"after_id": request.after_id, "limit": request.limit}).fetchall()
    ids = [row["configuration_id"] for row in rows]
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
        row = conn.execute(load_sql(_SQL, "save.sql"), {
            "configuration_id": request.configuration_id,
            "expected_token": request.expected_token,
            "filter": Jsonb(nf.model_dump(mode="json")),
            "samples": Jsonb([s.model_dump(mode="json") for s in nf.samples]),
        }).fetchone()
    return SaveResult(**row)


class ResetFilter(BaseModel):
    configuration_id: int


class ResetResult(BaseModel):
    had_filter: bool
    token: int


def reset_filter(pool: ConnectionPool, request: ResetFilter) -> ResetResult:
    with pool.connection() as conn:
        row = conn.execute(load_sql(_SQL, "reset.sql"), {"configuration_id": request.configuration_id}).fetchone()
    if row is None:
        raise LookupError(f"unknown configuration {request.configuration_id}")
    return ResetResult(**row)


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
        row = conn.execute(load_sql(_SQL, "get_configuration.sql"), {"configuration_id": configuration_id}).fetchone()
    if row is None:
        raise LookupError(f"unknown configuration {configuration_id}")
    return ConfigurationState(configuration_id=row["id"], company_id=row["company_id"],
                              company=row["company"], config_hash=row["config_hash"], config=row["config"], token=row["token"],
                              strategies=row["strategies"])
