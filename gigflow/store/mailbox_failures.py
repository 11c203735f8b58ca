"""mailbox_failures: messages of a mailbox source that failed to read, with how many runs tried them.

Queries: ``mailbox_failures.sql`` beside this module."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gigflow.sql import fetch_rows, fetch_value, load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.store", "mailbox_failures.sql")[name]


@dataclass(frozen=True)
class _Attempts:
    message_key: str
    attempts: int


@dataclass(frozen=True)
class MailboxFailure:
    """A message that failed to read: how many runs tried it, the last error, and whether it is given up."""
    source_id: str
    message_key: str
    attempts: int
    error: str | None
    last_failed: datetime
    given_up: bool


def record_failure(conn, source_id: str, message_key: str, error: str) -> int:
    """Record one failed read; how many runs have now tried the message."""
    return fetch_value(conn, _sql("record_failure"), {"source_id": source_id, "message_key": message_key,
                                                      "error": error})


def clear_failures(conn, source_id: str, keys: list[str]) -> None:
    conn.execute(_sql("clear_failures"), {"source_id": source_id, "keys": keys})


def failures(conn, source_id: str) -> dict[str, int]:
    """message key -> attempts."""
    return {row.message_key: row.attempts
            for row in fetch_rows(conn, _Attempts, _sql("failures"), {"source_id": source_id})}


def all_failures(conn, max_attempts: int) -> list[MailboxFailure]:
    """Every source's failed messages, those given up (``max_attempts`` reached) first."""
    return fetch_rows(conn, MailboxFailure, _sql("all_failures"), {"max_attempts": max_attempts})
