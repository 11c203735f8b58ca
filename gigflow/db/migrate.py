"""Versioned migrations: gigflow/db/migrations/NNNN_name.sql, applied in order, once."""

from __future__ import annotations

import re
from importlib.resources import files

from psycopg_pool import ConnectionPool

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_LOCK_KEY = 0x6769_6766  # "gigf": serialises migrations across processes
# Packages whose sql/proc_*.sql files define stored procedures (CREATE OR REPLACE), re-applied on every upgrade.
PROCEDURE_PACKAGES = ("gigflow.noise.lifecycle",)


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
    """Apply pending migrations in one transaction each; returns the versions applied."""
    applied: list[int] = []
    with pool.connection() as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            conn.commit()
            done = {row["version"] for row in conn.execute("SELECT version FROM schema_migrations")}
            for version, name, sql in migrations():
                if version in done:
                    continue
                with conn.transaction():
                    conn.execute(sql)
                    conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name))
                applied.append(version)
            with conn.transaction():
                for _, sql in procedures():
                    conn.execute(sql)
                if conn.execute("SELECT to_regclass('procrastinate_jobs') AS t").fetchone()["t"] is None:
                    conn.execute(queue_schema())
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
            conn.commit()
    return applied
