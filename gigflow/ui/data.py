"""The review app's reads: one function per endpoint, each running its own .sql file (sql/) and returning its rows
typed (rows.py). Each takes the app's pool (UiContext.pool) first."""

from __future__ import annotations

from typing import TypeVar

from gigflow.ui.library import ui_sql
from gigflow.ui.rows import (
    CanonicalLinkRow, ConfigurationRow, JobEventRow, JobRow, RunRow, SampleVersionRow, SourceJobRow, SourceListRow,
    SourceRow,
)

SOURCE_STATUSES = ("candidate", "trial", "active", "drifting", "quarantined")
Row = TypeVar("Row")


class NotFound(LookupError):
    pass


def _one(pool, row_type: type[Row], sql: str, params: dict, what: str) -> Row:
    if any(isinstance(v, int) and not -2**63 <= v < 2**63 for v in params.values()):
        raise NotFound(what)  # no bigint id is that large
    with pool.connection() as conn:
        row = conn.execute(ui_sql(sql), params).fetchone()
    if row is None:
        raise NotFound(what)
    return row_type(**row)


def _all(pool, row_type: type[Row], sql: str, params: dict) -> list[Row]:
    with pool.connection() as conn:
        return [row_type(**row) for row in conn.execute(ui_sql(sql), params).fetchall()]


def like_pattern(text: str) -> str | None:
    """A case-insensitive substring pattern, the user's % and _ taken literally."""
    text = (text or "").strip()[:200]
    if not text:
        return None
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def sources_page(pool, *, status: str | None, text: str, after: str | None, limit: int) -> list[SourceListRow]:
    return _all(pool, SourceListRow, "sources_page.sql", {"status": status, "pattern": like_pattern(text),
                                                    "after": after or None, "limit": limit})


def source(pool, source_id: str) -> SourceRow:
    return _one(pool, SourceRow, "source.sql", {"id": source_id}, f"no source {source_id!r}")


def source_runs(pool, source_id: str, limit: int) -> list[RunRow]:
    return _all(pool, RunRow, "source_runs.sql", {"id": source_id, "limit": limit})


def source_jobs(pool, source_id: str, limit: int) -> list[SourceJobRow]:
    return _all(pool, SourceJobRow, "source_jobs.sql", {"id": source_id, "limit": limit})


def job(pool, job_id: int) -> JobRow:
    from gigflow.maintenance.job_markdown import PAYLOAD_PARSERS

    return _one(pool, JobRow, "job.sql", {"id": job_id, "payload_parsers": PAYLOAD_PARSERS}, f"no job {job_id}")


def configuration(pool, configuration_id: int) -> ConfigurationRow:
    return _one(pool, ConfigurationRow, "configuration.sql", {"id": configuration_id},
                f"no configuration {configuration_id}")


def sample_version(pool, configuration_id: int, version_id: int) -> SampleVersionRow:
    return _one(pool, SampleVersionRow, "sample_version.sql", {"configuration_id": configuration_id,
                                                         "version_id": version_id},
                f"no stored version {version_id} of configuration {configuration_id}")


def job_events(pool, job_id: int, limit: int) -> list[JobEventRow]:
    return _all(pool, JobEventRow, "job_events.sql", {"id": job_id, "limit": limit})


def job_canonical(pool, job_id: int, limit: int) -> CanonicalLinkRow | None:
    """The canonical job link of a per-source job, or None before the resolver linked it."""
    try:
        return _one(pool, CanonicalLinkRow, "job_canonical.sql", {"id": job_id, "limit": limit}, "")
    except NotFound:
        return None
