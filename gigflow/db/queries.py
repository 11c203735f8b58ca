"""The database room's own queries: the server's version and emptiness (backup and restore) and the process's
liveness key (``liveness``). The SQL is ``queries.sql`` beside this module."""

from __future__ import annotations

from gigflow.sql import fetch_value, load_queries


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
