"""A small Python API over gigflow's canonical jobs (the same queries `scrapy jobs` runs).

    from gigflow import api
    for job in api.jobs(published=True, since="2026-11-01"):
        print(job["title"], job["quality_score"], [s["source_id"] for s in job["sightings"]])

Every function takes an optional ``database_url`` (default: GIGFLOW_DATABASE_URL, else the embedded server) and
``settings`` (a Scrapy Settings; default: the project's)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime

from gigflow.db import get_pool


def _settings(settings):
    if settings is not None:
        return settings
    from scrapy.utils.project import get_project_settings

    return get_project_settings()


def parse_since(value: str | date | datetime | None) -> date | datetime | None:
    if value is None or isinstance(value, (date, datetime)):
        return value
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        raise ValueError(f"since: {value!r} is not an ISO date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)") from None


def jobs(*, source: str | None = None, published: bool = False, since: str | date | datetime | None = None,
         database_url: str | None = None) -> Iterator[dict]:
    """Canonical jobs (streamed), each with its fields, quality, link status, sightings (per-source jobs with
    their evidence and link evidence) and latest link checks."""
    from gigflow.maintenance.export import canonical_jobs

    yield from canonical_jobs(get_pool(database_url), source_id=source, published=published, since=parse_since(since))


def job(canonical_id: int, *, database_url: str | None = None) -> dict | None:
    """One canonical job by id (or None)."""
    from gigflow.maintenance.export import canonical_jobs

    return next(canonical_jobs(get_pool(database_url), canonical_id=canonical_id), None)


def resolve(*, source: str | None = None, database_url: str | None = None, settings=None) -> dict:
    """Link unlinked per-source jobs to canonical jobs; returns counts."""
    from gigflow.maintenance.resolve import ResolveSettings, resolve as run

    return run(get_pool(database_url), ResolveSettings.from_settings(_settings(settings)), source)


def unmerge(job_id: int, *, database_url: str | None = None) -> dict:
    """Move per-source job ``job_id`` to a canonical job of its own, for good."""
    from gigflow.maintenance.resolve import unmerge as run

    return run(get_pool(database_url), job_id)


def check_links(canonical_ids: list[int] | None = None, *, database_url: str | None = None, settings=None) -> dict:
    """Check the given canonical jobs' links now, or this tick's share of the due ones."""
    from gigflow.maintenance.linkcheck import LinkCheckSettings, make_fetcher, sweep

    settings, pool = _settings(settings), get_pool(database_url)
    return sweep(pool, make_fetcher(pool, settings), LinkCheckSettings.from_settings(settings), canonical_ids)


def refresh(*, database_url: str | None = None, settings=None) -> dict:
    """The freshness sweep: expiry, staleness, quality score and the publish gate."""
    from gigflow.maintenance.freshness import FreshnessSettings, sweep

    return sweep(get_pool(database_url), FreshnessSettings.from_settings(_settings(settings)))
