"""What delivery (the read API, change feed, search) reads and keeps: api_tokens, delivery_jobs (the list/search
read model), delivery_cursors, and reads over canonical jobs and both event tables. One query per function.

List and search queries run unprepared (``prepare=False``): their optional filters (``%(x)s IS NULL OR ...``) are
then planned with the actual values, so an absent filter costs nothing and a present one can use its index; a
prepared statement could settle on a generic plan that scans.

Queries: ``delivery.sql`` beside this module."""

from __future__ import annotations

from gigflow.sql import load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.store", "delivery.sql")[name]


# tokens

def insert_token(conn, name: str, token_sha256: str, scopes: list[str]) -> dict | None:
    return conn.execute(_sql("token_insert"),
                        {"name": name, "token_sha256": token_sha256, "scopes": scopes}).fetchone()


def list_tokens(conn) -> list[dict]:
    return conn.execute(_sql("token_list")).fetchall()


def revoke_token(conn, name: str) -> bool:
    return conn.execute(_sql("token_revoke"), {"name": name}).fetchone() is not None


def find_token(conn, token_sha256: str) -> dict | None:
    return conn.execute(_sql("token_find"), {"token_sha256": token_sha256}).fetchone()


# reads

def list_jobs(conn, params: dict) -> list[dict]:
    """``params``: before, limit and the filters (source, employer, location, remote, employment_type,
    posted_since); with ``q`` (and rank, normalization, configs: the text search configurations q is parsed
    with) a ranked search instead."""
    name = "search_jobs" if params.get("q") else "list_jobs"
    return conn.execute(_sql(name), params, prepare=False).fetchall()


def job(conn, canonical_id: int, markdown: bool) -> dict | None:
    return conn.execute(_sql("job"), {"id": canonical_id, "markdown": markdown}).fetchone()


def changes(conn, xid: str, src: int, event_id: int, limit: int) -> list[dict]:
    """Up to ``limit`` event positions after (xid, src, id), each with its event (see delivery.sql: changes)."""
    return conn.execute(_sql("changes"), {"xid": xid, "src": src, "id": event_id, "limit": limit}).fetchall()


# the read model

def index_sources(conn, canonical_ids: list[int]) -> list[dict]:
    return conn.execute(_sql("index_source"), {"ids": canonical_ids}).fetchall()


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


def feed_head(conn) -> dict | None:
    return conn.execute(_sql("feed_head")).fetchone()


def forget_cursor(conn, name: str) -> None:
    conn.execute(_sql("cursor_forget"), {"name": name})


# webhooks

def insert_webhook(conn, name: str, url: str, secret: str, position: str) -> bool:
    return conn.execute(_sql("webhook_insert"),
                        {"name": name, "url": url, "secret": secret, "position": position}).fetchone() is not None


def list_webhooks(conn) -> list[dict]:
    return conn.execute(_sql("webhook_list")).fetchall()


def remove_webhook(conn, name: str) -> bool:
    return conn.execute(_sql("webhook_remove"), {"name": name}).fetchone() is not None


def webhook(conn, name: str) -> dict | None:
    return conn.execute(_sql("webhook_get"), {"name": name}).fetchone()


def webhook_delivered(conn, hook_id: int, from_position: str, position: str, sent: bool) -> None:
    conn.execute(_sql("webhook_delivered"),
                 {"id": hook_id, "from_position": from_position, "position": position, "sent": sent})


def webhook_failed(conn, hook_id: int, error: str) -> int:
    return conn.execute(_sql("webhook_failed"), {"id": hook_id, "error": error}).fetchone()["failures"]
