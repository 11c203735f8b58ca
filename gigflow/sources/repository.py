"""Sources in PostgreSQL: import, load, list, status. The owner of companies, configurations, sources and
source_status_events; queries: ``repository.sql`` beside this module."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb
from pydantic import ValidationError
from psycopg_pool import ConnectionPool

from gigflow.sql import fetch_row, fetch_rows, fetch_value, load_queries
from gigflow.sources.config import SourceConfig, SourceStatus


def _sql(name: str) -> str:
    return load_queries("gigflow.sources", "repository.sql")[name]


@dataclass(frozen=True)
class SourceState:
    """A source's status, policy review, strategies and when it entered its status (and what it was before it
    last drifted)."""
    id: str
    status: str
    status_reason: str | None
    policy_reviewed_at: datetime | None
    policy_reviewed_by: str | None
    policy_note: str | None
    configuration_id: int
    next_crawl_at: datetime | None
    strategies: list[dict]
    status_since: datetime | None
    status_before_drift: str | None


@dataclass(frozen=True)
class StatusEvent:
    at: datetime
    from_status: str | None
    to_status: str
    reason: str | None
    actor: str | None
    evidence: dict | None


@dataclass(frozen=True)
class SourceRecord:
    """A source as stored: its configuration plus database identity."""

    config: SourceConfig
    configuration_id: int
    config_hash: str
    stored_config: dict[str, Any]
    token: int

    @property
    def id(self) -> str:
        return self.config.id


@dataclass(frozen=True)
class StoredSource:
    """sources_by_canonical_url: a source already stored under a canonical URL being imported."""

    id: str
    company: str
    canonical_url: str
    config_hash: str


@dataclass(frozen=True)
class _UpsertedSource:
    status: str
    inserted: bool


@dataclass(frozen=True)
class _SourceRow:
    """get_source: the source, its company and its configuration as stored."""

    id: str
    url: str
    status: str
    status_reason: str | None
    parser_key: str | None
    configuration_id: int
    next_crawl_at: datetime | None
    company: str
    canonical_url: str
    strategies: list
    config_hash: str
    config: dict | None
    token: int


@dataclass(frozen=True)
class SourceListRow:
    """list_sources: one source of a page, with its live job count and last crawl."""

    id: str
    company: str
    status: str
    status_reason: str | None
    configuration_id: int
    url: str
    config_hash: str
    jobs: int
    last_crawl: datetime | None


@dataclass(frozen=True)
class ConfigurationSource:
    """configuration_sources: a source of one configuration and its status."""

    id: str
    status: str


class UnknownSourceError(LookupError):
    pass


class InvalidStoredSourceError(ValueError):
    """A stored configuration today's validation refuses; nothing is crawled with it."""


class SourceConflictError(ValueError):
    """Sources that would silently share one configuration; the message names them."""


def configuration_conflicts(configs: list[SourceConfig], stored: list[StoredSource]) -> list[str]:
    """A configuration belongs to one company and one set of strategies. Sources with the same canonical URL
    share it, so they must agree on both; otherwise one company's crawl would store the other's jobs."""
    importing = {config.id for config in configs}
    by_url: dict[str, list[tuple[str, str, str]]] = {}
    for config in configs:
        by_url.setdefault(config.canonical_url, []).append((config.id, config.company, config.config_hash()))
    for row in stored:
        if row.id not in importing:
            by_url.setdefault(row.canonical_url, []).append((row.id, row.company, row.config_hash))
    problems = []
    for url, sources in by_url.items():
        first = sources[0]
        for other in sources[1:]:
            if other[1] != first[1]:
                problems.append(f"canonical URL {url}: source {first[0]!r} ({first[1]}) and source {other[0]!r} "
                                f"({other[1]}) belong to different companies; a configuration is per company, so "
                                f"give each source its own canonical URL")
            elif other[2] != first[2]:
                problems.append(f"canonical URL {url}: sources {first[0]!r} and {other[0]!r} share it but configure "
                                f"different strategies; they would silently share one configuration")
    return problems


def import_sources(pool: ConnectionPool, configs: list[SourceConfig], *, actor: str = "import") -> None:
    """Write all sources in one transaction: all or nothing. Refuses, writing nothing, sources that would share
    a configuration with another company's source (or with other strategies). A source already stored keeps its
    status (and history) unless its entry names a status; every status set here is recorded as an event."""
    with pool.connection() as conn, conn.transaction():
        stored = fetch_rows(conn, StoredSource, _sql("sources_by_canonical_url"),
                            {"urls": sorted({c.canonical_url for c in configs})})
        problems = configuration_conflicts(configs, stored)
        if problems:
            raise SourceConflictError("nothing imported; fix these first:\n  " + "\n  ".join(problems))
        for config in configs:
            company_id = fetch_value(conn, _sql("upsert_company"), {"company": config.company})
            configuration_id = fetch_value(conn, _sql("upsert_configuration"), {
                "company_id": company_id,
                "canonical_url": config.canonical_url,
                "strategies": Jsonb([s.model_dump(mode="json") for s in config.strategies]),
                "config_hash": config.config_hash(),
            })
            row = fetch_row(conn, _UpsertedSource, _sql("upsert_source"), {
                "id": config.id, "configuration_id": configuration_id, "company_id": company_id,
                "url": config.canonical_url, "status": config.status.value, "parser_key": config.parser_key,
            })
            if row.inserted:  # a new source: its first status is an event too
                conn.execute(_sql("insert_status_event"), {
                    "id": config.id, "from_status": None, "status": row.status, "actor": actor,
                    "reason": "imported", "evidence": Jsonb({})})
            elif "status" in config.model_fields_set and row.status != config.status.value:
                # the file names a status: a change like any other, with its event
                set_status(pool, config.id, config.status, "set by the imported source file", actor=actor, conn=conn)


def source_exists(conn, source_id: str) -> bool:
    return bool(fetch_value(conn, _sql("source_exists"), {"id": source_id}))


def get_source(pool: ConnectionPool, source_id: str) -> SourceRecord:
    with pool.connection() as conn:
        row = fetch_row(conn, _SourceRow, _sql("get_source"), {"id": source_id})
    if row is None:
        raise UnknownSourceError(f"unknown source {source_id!r} (see `scrapy sources list`)")
    try:
        config = SourceConfig(id=row.id, company=row.company, canonical_url=row.canonical_url,
                              strategies=row.strategies, status=row.status, parser_key=row.parser_key)
    except ValidationError as exc:  # stored by an older version that checked less (a selector, say)
        from gigflow.sources.loader import _field_path

        problems = "; ".join(f"{_field_path(err['loc'])}: {err['msg'].removeprefix('Value error, ')}"
                             for err in exc.errors())
        raise InvalidStoredSourceError(f"source {source_id!r} has an invalid stored configuration ({problems}); "
                                       f"fix it and import it again") from None
    return SourceRecord(config=config, configuration_id=row.configuration_id, config_hash=row.config_hash,
                        stored_config=row.config or {}, token=row.token)


def list_sources(pool: ConnectionPool, *, after: str | None = None, limit: int = 100) -> list[SourceListRow]:
    """One page of sources in id order: those after ``after``, at most ``limit``."""
    with pool.connection() as conn:
        return fetch_rows(conn, SourceListRow, _sql("list_sources"), {"after": after, "limit": limit})


def set_status(pool: ConnectionPool, source_id: str, status: SourceStatus, reason: str | None = None, *,
               actor: str = "gigflow", evidence: dict | None = None, conn=None) -> bool:
    """Change a source's status and record the change in source_status_events; False for an unknown source."""
    params = {"id": source_id, "status": SourceStatus(status).value, "reason": reason, "actor": actor,
              "evidence": Jsonb(evidence or {})}
    if conn is not None:
        return fetch_value(conn, _sql("set_source_status"), params) is not None
    with pool.connection() as conn:
        return fetch_value(conn, _sql("set_source_status"), params) is not None


def configuration_source_statuses(pool: ConnectionPool, configuration_id: int) -> list[ConfigurationSource]:
    """The sources that share this configuration (and its noise filter), by id, with their statuses."""
    with pool.connection() as conn:
        return fetch_rows(conn, ConfigurationSource, _sql("configuration_sources"),
                          {"configuration_id": configuration_id})


def configuration_sources(pool: ConnectionPool, configuration_id: int) -> list[str]:
    """The ids of the sources that share this configuration (and its noise filter)."""
    return [row.id for row in configuration_source_statuses(pool, configuration_id)]


def record_policy_review(conn, source_id: str, actor: str, note: str) -> bool:
    """False when there is no such source."""
    return fetch_value(conn, _sql("record_policy_review"),
                       {"id": source_id, "actor": actor, "note": note}) is not None


def save_strategies(conn, configuration_id: int, token: int, config_hash: str, strategies: list[dict]) -> bool:
    """False (nothing saved) when the configuration changed meanwhile (its token moved)."""
    return fetch_value(conn, _sql("save_strategies"), {
        "configuration_id": configuration_id, "token": token, "config_hash": config_hash,
        "strategies": Jsonb(strategies)}) is not None


def source_state(conn, source_id: str) -> SourceState | None:
    return fetch_row(conn, SourceState, _sql("source_state"), {"id": source_id})


def status_events(conn, source_id: str, limit: int) -> list[StatusEvent]:
    return fetch_rows(conn, StatusEvent, _sql("status_events"), {"id": source_id, "limit": limit})
