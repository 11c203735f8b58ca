"""A small Python API over gigflow's canonical jobs (the same queries `scrapy jobs` runs).

    from gigflow import api
    db = api.connect(home="/srv/gigflow/.gigflow")        # or api.connect(database_url="postgresql://...")
    for job in db.jobs(published=True, since="2026-11-01"):
        print(job["title"], job["quality_score"], [s["source_id"] for s in job["sightings"]])

``connect()`` without arguments finds the database as the commands do: GIGFLOW_DATABASE_URL, else GIGFLOW_HOME's
embedded server, else the embedded server of the gigflow project the current folder is in. It never creates a
database: where none exists it raises ``NoDatabaseError`` saying where it looked. The module-level functions
(``api.jobs(...)`` and the rest) connect that way on each call; ``database_url=`` picks a server for one call."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

from gigflow.db import NoDatabaseError, get_pool

__all__ = ["Connection", "NoDatabaseError", "connect", "jobs", "job", "resolve", "unmerge", "check_links",
           "refresh", "parse_since"]


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


def find_database_url(*, home: str | os.PathLike | None = None, database_url: str | None = None) -> str:
    """Where ``connect`` connects (see the module's doc); NoDatabaseError rather than a new, empty database."""
    if home is not None and database_url is not None:
        raise ValueError("give home= or database_url=, not both")
    from gigflow.db.connection import existing_embedded_server_url

    if database_url:
        return database_url
    if home is not None:
        return existing_embedded_server_url(Path(home))
    if os.environ.get("GIGFLOW_DATABASE_URL"):
        return os.environ["GIGFLOW_DATABASE_URL"]
    if os.environ.get("GIGFLOW_HOME"):
        return existing_embedded_server_url(Path(os.environ["GIGFLOW_HOME"]))
    from scrapy.utils.conf import closest_scrapy_cfg

    cfg = closest_scrapy_cfg()
    if not cfg:
        raise NoDatabaseError(f"no gigflow project around {Path.cwd()} and neither GIGFLOW_DATABASE_URL nor "
                              f"GIGFLOW_HOME is set: call api.connect(home=...) or api.connect(database_url=...)")
    return existing_embedded_server_url(Path(cfg).parent / ".gigflow")


class Connection:
    """gigflow's canonical jobs on one database (what ``connect`` returns)."""

    def __init__(self, url: str, settings=None, *, pool=None):
        self.url = url
        self.pool = pool or get_pool(url)  # a caller's own pool on ``url`` (a command's), else the shared one
        self._settings = settings

    @property
    def settings(self):
        self._settings = _settings(self._settings)
        return self._settings

    def jobs(self, *, source: str | None = None, published: bool = False,
             since: str | date | datetime | None = None) -> Iterator[dict]:
        """Canonical jobs (streamed), each with its fields, quality, link status, sightings (per-source jobs with
        their evidence and link evidence) and latest link checks."""
        from gigflow.maintenance.export import canonical_jobs

        yield from canonical_jobs(self.pool, source_id=source, published=published, since=parse_since(since))

    def job(self, canonical_id: int) -> dict | None:
        """One canonical job by id (or None)."""
        from gigflow.maintenance.export import canonical_jobs

        return next(canonical_jobs(self.pool, canonical_id=canonical_id), None)

    def resolve(self, *, source: str | None = None) -> dict:
        """Link unlinked per-source jobs to canonical jobs; returns counts."""
        from gigflow.maintenance.resolve import ResolveSettings, resolve as run

        return run(self.pool, ResolveSettings.from_settings(self.settings), source)

    def unmerge(self, job_id: int) -> dict:
        """Move per-source job ``job_id`` to a canonical job of its own, for good."""
        from gigflow.maintenance.resolve import unmerge as run

        return run(self.pool, job_id)

    def check_links(self, canonical_ids: list[int] | None = None) -> dict:
        """Check the given canonical jobs' links now, or this tick's share of the due ones ({} when none is due)."""
        from gigflow.maintenance.linkcheck import LinkCheckSettings, make_fetcher, sweep

        return sweep(self.pool, make_fetcher(self.pool, self.settings), LinkCheckSettings.from_settings(self.settings),
                     canonical_ids)

    def refresh(self) -> dict:
        """The freshness sweep: expiry, staleness, quality score and the publish gate."""
        from gigflow.maintenance.freshness import FreshnessSettings, sweep

        return sweep(self.pool, FreshnessSettings.from_settings(self.settings))


def connect(*, home: str | os.PathLike | None = None, database_url: str | None = None,
            settings=None) -> Connection:
    """A connection to the gigflow database under ``home`` (a GIGFLOW_HOME folder, e.g. a project's
    ``.gigflow``) or at ``database_url``; neither: found as the commands find it. Never creates a database."""
    return Connection(find_database_url(home=home, database_url=database_url), settings)


# -- one call, one lookup (the first API; kept) ---------------------------------------------------------------

def jobs(*, source: str | None = None, published: bool = False, since: str | date | datetime | None = None,
         database_url: str | None = None) -> Iterator[dict]:
    since = parse_since(since)  # a bad date is named before any connection
    yield from connect(database_url=database_url).jobs(source=source, published=published, since=since)


def job(canonical_id: int, *, database_url: str | None = None) -> dict | None:
    return connect(database_url=database_url).job(canonical_id)


def resolve(*, source: str | None = None, database_url: str | None = None, settings=None) -> dict:
    return connect(database_url=database_url, settings=settings).resolve(source=source)


def unmerge(job_id: int, *, database_url: str | None = None) -> dict:
    return connect(database_url=database_url).unmerge(job_id)


def check_links(canonical_ids: list[int] | None = None, *, database_url: str | None = None, settings=None) -> dict:
    return connect(database_url=database_url, settings=settings).check_links(canonical_ids)


def refresh(*, database_url: str | None = None, settings=None) -> dict:
    return connect(database_url=database_url, settings=settings).refresh()
