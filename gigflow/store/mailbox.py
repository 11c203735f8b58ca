"""mailbox_failures: messages of a mailbox source that failed to read, with how many runs tried them."""

from __future__ import annotations

from gigflow.sql import load_sql


def _sql(name: str) -> str:
    return load_sql("gigflow.store", name)


def record_failure(conn, source_id: str, message_key: str, error: str) -> int:
    """Record one failed read; how many runs have now tried the message."""
    return conn.execute(_sql("record_mailbox_failure.sql"),
                        {"source_id": source_id, "message_key": message_key, "error": error}).fetchone()["attempts"]


def clear_failures(conn, source_id: str, keys: list[str]) -> None:
    conn.execute(_sql("clear_mailbox_failure.sql"), {"source_id": source_id, "keys": keys})


def failures(conn, source_id: str) -> dict[str, int]:
    """message key -> attempts."""
    rows = conn.execute(_sql("mailbox_failures.sql"), {"source_id": source_id}).fetchall()
    return {row["message_key"]: row["attempts"] for row in rows}
