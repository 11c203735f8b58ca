"""The database room's own queries: the server's version and emptiness (backup and restore), the process's
liveness key (``liveness``), the record of applied migrations (``migrate``), session advisory locks and scratch
databases (``sources try``). The SQL is ``queries.sql`` beside this module; the two database statements take an
identifier, composed with psycopg.sql."""

from __future__ import annotations

from dataclasses import dataclass

from gigflow.sql import fetch_rows, fetch_value, fetch_values, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.db", "queries.sql")[name]


def server_version_num(conn) -> int:
    """The server's version as one number (170002 for 17.2)."""
    return int(fetch_value(conn, _sql("server_version_num")))


def user_table_count(conn) -> int:
    """Tables outside the system schemas."""
    return fetch_value(conn, _sql("user_table_count"))


def take_liveness_lock(conn, holder_lock: int) -> bool:
    """Hold ``holder_lock`` for as long as ``conn``'s session lives; False when another session holds it."""
    return fetch_value(conn, _sql("take_liveness_lock"), {"holder_lock": holder_lock})


def echo_liveness_key(conn, holder_lock: int) -> int:
    return fetch_value(conn, _sql("echo_liveness_key"), {"holder_lock": holder_lock})


@dataclass(frozen=True)
class AppliedProcedure:
    name: str
    sha256: str


def take_migration_lock(conn, key: int) -> None:
    conn.execute(_sql("take_migration_lock"), {"key": key})


def release_migration_lock(conn, key: int) -> None:
    conn.execute(_sql("release_migration_lock"), {"key": key})


def create_schema_tables(conn) -> None:
    """The tables that record which migrations and procedure files were applied."""
    conn.execute(_sql("create_schema_migrations"))
    conn.execute(_sql("create_schema_procedures"))


def applied_migrations(conn) -> set[int]:
    return set(fetch_values(conn, _sql("applied_migrations")))


def record_migration(conn, version: int, name: str) -> None:
    conn.execute(_sql("record_migration"), {"version": version, "name": name})


def applied_procedures(conn) -> list[AppliedProcedure]:
    return fetch_rows(conn, AppliedProcedure, _sql("applied_procedures"))


def record_procedure(conn, name: str, sha256: str) -> None:
    conn.execute(_sql("record_procedure"), {"name": name, "sha256": sha256})


def has_schema_migrations(conn) -> bool:
    return bool(fetch_value(conn, _sql("has_schema_migrations")))


def try_session_lock(conn, key: int) -> bool:
    """Hold advisory lock ``key`` for ``conn``'s session; False at once when another session holds it."""
    return bool(fetch_value(conn, _sql("try_session_lock"), {"key": key}))


def release_session_lock(conn, key: int) -> None:
    conn.execute(_sql("release_session_lock"), {"key": key})


def create_database(conn, name: str) -> None:
    """A new empty database (``conn`` in autocommit); ``name`` is quoted as an identifier."""
    from psycopg import sql

    conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_database(conn, name: str) -> None:
    """Drop database ``name`` if it exists, its connections ended (``conn`` in autocommit)."""
    from psycopg import sql

    conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def has_queue_schema(conn) -> bool:
    return fetch_value(conn, _sql("queue_table")) is not None
