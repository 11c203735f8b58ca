"""Sources in PostgreSQL: import, load, list, status."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from gigflow.sql import load_sql
from gigflow.sources.config import SourceConfig, SourceStatus

_SQL = "gigflow.sources"


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


class UnknownSourceError(LookupError):
    pass


def import_sources(pool: ConnectionPool, configs: list[SourceConfig]) -> None:
    """Write all sources in one transaction: all or nothing."""
    with pool.connection() as conn, conn.transaction():
        for config in configs:
            company_id = conn.execute(load_sql(_SQL, "upsert_company.sql"), {"company": config.company}).fetchone()["id"]
            configuration_id = conn.execute(load_sql(_SQL, "upsert_configuration.sql"), {
                "company_id": company_id,
                "canonical_url": config.canonical_url,
                "strategies": Jsonb([s.model_dump(mode="json") for s in config.strategies]),
                "config_hash": config.config_hash(),
            }).fetchone()["id"]
            conn.execute(load_sql(_SQL, "upsert_source.sql"), {
                "id": config.id, "configuration_id": configuration_id, "company_id": company_id,
                "url": config.canonical_url, "status": config.status.value, "parser_key": config.parser_key,
            })


def get_source(pool: ConnectionPool, source_id: str) -> SourceRecord:
    with pool.connection() as conn:
        row = conn.execute(load_sql(_SQL, "get_source.sql"), {"id": source_id}).fetchone()
    if row is None:
        raise UnknownSourceError(f"unknown source {source_id!r} (see `scrapy sources list`)")
    config = SourceConfig(id=row["id"], company=row["company"], canonical_url=row["canonical_url"],
                          strategies=row["strategies"], status=row["status"], parser_key=row["parser_key"])
    return SourceRecord(config=config, configuration_id=row["configuration_id"], config_hash=row["config_hash"],
                        stored_config=row["config"] or {}, token=row["token"])


def list_sources(pool: ConnectionPool, *, after: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """One page of sources in id order: those after ``after``, at most ``limit``."""
    with pool.connection() as conn:
        return conn.execute(load_sql(_SQL, "list_sources.sql"), {"after": after, "limit": limit}).fetchall()


def set_status(pool: ConnectionPool, source_id: str, status: SourceStatus, reason: str | None = None) -> None:
    with pool.connection() as conn:
        conn.execute(load_sql(_SQL, "set_source_status.sql"), {"id": source_id, "status": status.value, "reason": reason})
