"""Versioned migrations (gigflow/db/migrations/NNNN_name.sql, applied in order, once, all in one transaction)
and stored procedures (re-applied when their text changes)."""

from __future__ import annotations

import hashlib
import re
from importlib.resources import files

from psycopg_pool import ConnectionPool

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
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            conn.execute("CREATE TABLE IF NOT EXISTS schema_procedures (name text PRIMARY KEY, sha256 text NOT NULL)")
            done = {row["version"] for row in conn.execute("SELECT version FROM schema_migrations")}
            for version, name, sql in migrations():
                if version not in done:
                    conn.execute(sql)
                    conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name))
                    applied.append(version)
            current = {row["name"]: row["sha256"] for row in conn.execute("SELECT * FROM schema_procedures")}
            for name, sql in procedures():
                digest = hashlib.sha256(sql.encode("utf-8")).hexdigest()
                if current.get(name) != digest:
                    conn.execute(sql)
                    conn.execute("INSERT INTO schema_procedures (name, sha256) VALUES (%s, %s) ON CONFLICT (name)"
                                 " DO UPDATE SET sha256 = EXCLUDED.sha256", (name, digest))
            if conn.execute("SELECT to_regclass('procrastinate_jobs') AS t").fetchone()["t"] is None:
                conn.execute(queue_schema())
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
            conn.commit()
    return applied
