"""What delivery (the read API, change feed, search) reads and keeps: api_tokens, delivery_jobs (the list/search
read model), delivery_cursors, and reads over canonical jobs and both event tables. One query per function.

List and search queries run unprepared (``prepare=False``): their optional filters (``%(x)s IS NULL OR ...``) are
then planned with the actual values, so an absent filter costs nothing and a present one can use its index; a
prepared statement could settle on a generic plan that scans.

Queries: ``delivery.sql`` beside this module. Reads return frozen rows (below), one type per query's columns, in
the query's column order (the read API's JSON follows it)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date, datetime
from typing import Any

from psycopg.rows import class_row

from gigflow.sql import load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.store", "delivery.sql")[name]


def _one(conn, row_type: type, name: str, params: dict | None = None):
    """Query ``name``'s first row as a ``row_type``, or None."""
    with conn.cursor(row_factory=class_row(row_type)) as cursor:
        return cursor.execute(_sql(name), params).fetchone()


def _all(conn, row_type: type, name: str, params: dict | None = None, *, prepare: bool | None = None):
    """Query ``name``'s rows as ``row_type``s."""
    with conn.cursor(row_factory=class_row(row_type)) as cursor:
        return cursor.execute(_sql(name), params, prepare=prepare).fetchall()


@dataclass(frozen=True)
class TokenRow:
    """token_insert (no revoked_at yet) and token_list."""

    id: int
    name: str
    scopes: list[str]
    created_at: datetime
    revoked_at: datetime | None = None


@dataclass(frozen=True)
class LiveToken:
    """token_find: the live token's name and scopes."""

    name: str
    scopes: list[str]


@dataclass(frozen=True)
class JobListRow:
    """list_jobs and search_jobs: one job of a page (rank None outside a search)."""

    id: int
    title: str
    employer: str | None
    location: str | None
    remote: str | None
    employment_type: str | None
    date_posted: date | None
    source_ids: list[str]
    language: str
    published_at: datetime | None
    quality_score: float | None
    link_status: str | None
    first_seen: datetime | None
    modified_at: datetime | None
    rank: float | None

    def payload(self, *, ranked: bool) -> dict:
        """The job as the list answers it: every column but modified_at, and rank only in a search."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "modified_at" and (f.name != "rank" or ranked)}


@dataclass(frozen=True)
class JobRow:
    """job: one canonical job with its best sighting's fields, every sighting and the latest link checks."""

    id: int
    merged_into: int | None
    published_at: datetime | None
    expired_at: datetime | None
    stale_at: datetime | None
    link_status: str | None
    quality_score: float | None
    quality_parts: Any
    first_seen: datetime | None
    title: str | None
    url: str | None
    fields: dict | None
    evidence: dict | None
    last_seen: datetime | None
    sightings: list[dict] | None
    link_checks: list[dict]
    modified_at: datetime | None


@dataclass(frozen=True)
class FeedPosition:
    """feed_head: a position of the change feed."""

    xid: str
    src: int
    id: int

    @property
    def position(self) -> tuple[str, int, int]:
        return self.xid, self.src, self.id


@dataclass(frozen=True)
class ChangeRow:
    """changes: one event position with what a client needs of its event."""

    xid: str
    src: int
    id: int
    kind: str | None
    canonical_id: int | None
    job_id: int | None
    source_id: str | None
    fields: dict
    detail: dict | None
    at: datetime | None

    @property
    def position(self) -> tuple[str, int, int]:
        return self.xid, self.src, self.id


@dataclass(frozen=True)
class IndexSource:
    """index_source: what one canonical job's read-model row is built from (gone: folded, unknown or empty)."""

    canonical_id: int
    gone: bool
    title: str | None
    fields: dict | None
    source_ids: list[str] | None


@dataclass(frozen=True)
class WebhookListRow:
    """webhook_list: a webhook without its secret."""

    id: int
    name: str
    url: str
    position: str
    failures: int
    last_error: str | None
    last_delivered_at: datetime | None
    created_at: datetime


@dataclass(frozen=True)
class WebhookRow:
    """webhook_get: what a delivery needs, its secret included."""

    id: int
    name: str
    url: str
    secret: str
    position: str
    failures: int


# tokens

def insert_token(conn, name: str, token_sha256: str, scopes: list[str]) -> TokenRow | None:
    return _one(conn, TokenRow, "token_insert",
                  {"name": name, "token_sha256": token_sha256, "scopes": scopes})


def list_tokens(conn) -> list[TokenRow]:
    return _all(conn, TokenRow, "token_list")


def revoke_token(conn, name: str) -> bool:
    return conn.execute(_sql("token_revoke"), {"name": name}).fetchone() is not None


def find_token(conn, token_sha256: str) -> LiveToken | None:
    return _one(conn, LiveToken, "token_find", {"token_sha256": token_sha256})


# reads

def list_jobs(conn, params: dict) -> list[JobListRow]:
    """``params``: before, limit and the filters (source, employer, location, remote, employment_type,
    posted_since); with ``q`` (and rank, normalization, configs: the text search configurations q is parsed
    with) a ranked search instead."""
    name = "search_jobs" if params.get("q") else "list_jobs"
    return _all(conn, JobListRow, name, params, prepare=False)


def job(conn, canonical_id: int, markdown: bool) -> JobRow | None:
    return _one(conn, JobRow, "job", {"id": canonical_id, "markdown": markdown})


def changes(conn, xid: str, src: int, event_id: int, limit: int) -> list[ChangeRow]:
    """Up to ``limit`` event positions after (xid, src, id), each with its event (see delivery.sql: changes)."""
    return _all(conn, ChangeRow, "changes", {"xid": xid, "src": src, "id": event_id, "limit": limit})


# the read model

def index_sources(conn, canonical_ids: list[int]) -> list[IndexSource]:
    return _all(conn, IndexSource, "index_source", {"ids": canonical_ids})


def canonical_ids_after(conn, after: int, limit: int) -> list[int]:
    return [row["id"] for row in conn.execute(_sql("index_all"), {"after": after, "limit": limit})]


def upsert_index_rows(conn, rows: list[dict]) -> None:
    with conn.cursor() as cursor:
        cursor.executemany(_sql("index_upsert"), rows)


def delete_index_rows(conn, canonical_ids: list[int]) -> None:
    conn.execute(_sql("index_delete"), {"ids": canonical_ids})


def cursor_position(conn, name: str) -> str | None:
    row = conn.execute(_sql("cursor_get"), {"name": name}).fetchone()
    return row["position"] if row else None


def save_cursor_position(conn, name: str, position: str) -> None:
    conn.execute(_sql("cursor_save"), {"name": name, "position": position})


def feed_head(conn) -> FeedPosition | None:
    return _one(conn, FeedPosition, "feed_head")


def forget_cursor(conn, name: str) -> None:
    conn.execute(_sql("cursor_forget"), {"name": name})


# webhooks

def insert_webhook(conn, name: str, url: str, secret: str, position: str) -> bool:
    return conn.execute(_sql("webhook_insert"),
                        {"name": name, "url": url, "secret": secret, "position": position}).fetchone() is not None


def list_webhooks(conn) -> list[WebhookListRow]:
    return _all(conn, WebhookListRow, "webhook_list")


def remove_webhook(conn, name: str) -> bool:
    return conn.execute(_sql("webhook_remove"), {"name": name}).fetchone() is not None


def webhook(conn, name: str) -> WebhookRow | None:
    return _one(conn, WebhookRow, "webhook_get", {"name": name})


def webhook_delivered(conn, hook_id: int, from_position: str, position: str, sent: bool) -> None:
    conn.execute(_sql("webhook_delivered"),
                 {"id": hook_id, "from_position": from_position, "position": position, "sent": sent})


def webhook_failed(conn, hook_id: int, error: str) -> int:
    return conn.execute(_sql("webhook_failed"), {"id": hook_id, "error": error}).fetchone()["failures"]
