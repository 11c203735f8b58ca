"""The review app's reads: one function per endpoint over the store's review reads (gigflow.store.review, reached
through library.py), returning their frozen rows. Each takes the app's pool (UiContext.pool) first."""

from __future__ import annotations

from gigflow.ui.library import (
    CanonicalLinkRow, ConfigurationRow, JobEventRow, JobRow, RunRow, SampleVersionRow, SourceJobRow, SourceListRow,
    SourceRow, review,
)

SOURCE_STATUSES = ("candidate", "trial", "active", "drifting", "quarantined")


class NotFound(LookupError):
    pass


def _one(pool, read, what: str, *args):
    """``read(conn, *args)``'s row; NotFound (saying ``what``) when there is none."""
    if any(isinstance(v, int) and not -2**63 <= v < 2**63 for v in args):
        raise NotFound(what)  # no bigint id is that large
    with pool.connection() as conn:
        row = read(conn, *args)
    if row is None:
        raise NotFound(what)
    return row


def like_pattern(text: str) -> str | None:
    """A case-insensitive substring pattern, the user's % and _ taken literally."""
    text = (text or "").strip()[:200]
    if not text:
        return None
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def sources_page(pool, *, status: str | None, text: str, after: str | None, limit: int) -> list[SourceListRow]:
    with pool.connection() as conn:
        return review.sources_page(conn, status=status, pattern=like_pattern(text), after=after or None, limit=limit)


def source(pool, source_id: str) -> SourceRow:
    return _one(pool, review.source, f"no source {source_id!r}", source_id)


def source_runs(pool, source_id: str, limit: int) -> list[RunRow]:
    with pool.connection() as conn:
        return review.source_runs(conn, source_id, limit)


def source_jobs(pool, source_id: str, limit: int) -> list[SourceJobRow]:
    with pool.connection() as conn:
        return review.source_jobs(conn, source_id, limit)


def job(pool, job_id: int) -> JobRow:
    from gigflow.maintenance.job_markdown import PAYLOAD_PARSERS

    return _one(pool, review.job, f"no job {job_id}", job_id, PAYLOAD_PARSERS)


def configuration(pool, configuration_id: int) -> ConfigurationRow:
    return _one(pool, review.configuration, f"no configuration {configuration_id}", configuration_id)


def sample_version(pool, configuration_id: int, version_id: int) -> SampleVersionRow:
    return _one(pool, review.sample_version, f"no stored version {version_id} of configuration {configuration_id}",
                configuration_id, version_id)


def job_events(pool, job_id: int, limit: int) -> list[JobEventRow]:
    with pool.connection() as conn:
        return review.job_events(conn, job_id, limit)


def job_canonical(pool, job_id: int, limit: int) -> CanonicalLinkRow | None:
    """The canonical job link of a per-source job, or None before the resolver linked it."""
    try:
        return _one(pool, review.job_canonical, "", job_id, limit)
    except NotFound:
        return None
