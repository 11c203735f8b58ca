"""Versioned migrations (gigflow/db/migrations/NNNN_name.sql, applied in order, once, all in one transaction)
and stored procedures (re-applied when their text changes)."""

from __future__ import annotations

import hashlib
import re
from importlib.resources import files

from psycopg_pool import ConnectionPool

from gigflow.db import queries

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_LOCK_KEY = 0x6769_6766  # "gigf": serialises migrations across processes
# Packages whose sql/proc_*.sql files define stored procedures (CREATE OR REPLACE), re-applied on every upgrade.
PROCEDURE_PACKAGES = ("gigflow.noise.learn.lifecycle",)


def procedures() -> list[tuple[str, str]]:
    found = []
    for package in PROCEDURE_PACKAGES:
        for entry in files(package).joinpath("sql").iterdir():
            if entry.name.startswith("proc_") and entry.name.endswith(".sql"):
                found.append((f"{package}:{entry.name}", entry.read_text(encoding="utf-8")))
    return sorted(found)


def queue_schema() -> str:
    """procrastinate's own schema, applied once; its version is pinned in pyproject.toml."""
    return files("procrastinate.sql").joinpath("schema.sql").read_text(encoding="utf-8")


def migrations() -> list[tuple[int, str, str]]:
    found = []
    for entry in files("gigflow.db").joinpath("migrations").iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    return sorted(found)


def upgrade(pool: ConnectionPool) -> list[int]:
    """Apply pending migrations and changed procedures; returns the migration versions applied.

    Many crawl processes start at once: an advisory lock serialises them, and everything commits before the
    lock is released, so no two processes ever rewrite the same catalog rows.
    """
    applied: list[int] = []
    with pool.connection() as conn:
        queries.take_migration_lock(conn, _LOCK_KEY)
        try:
            queries.create_schema_tables(conn)
            done = queries.applied_migrations(conn)
            for version, name, sql in migrations():
                if version not in done:
                    conn.execute(sql)
                    queries.record_migration(conn, version, name)
                    applied.append(version)
            current = {row.name: row.sha256 for row in queries.applied_procedures(conn)}
            for name, sql in procedures():
                digest = hashlib.sha256(sql.encode("utf-8")).hexdigest()
                if current.get(name) != digest:
                    conn.execute(sql)
                    queries.record_procedure(conn, name, digest)
            if not queries.has_queue_schema(conn):
                conn.execute(queue_schema())
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            queries.release_migration_lock(conn, _LOCK_KEY)
            conn.commit()
    return applied
