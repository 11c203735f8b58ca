"""The change feed: what happened to canonical jobs, in a commit-safe order (see store/delivery.sql: changes).

A client keeps the last ``next`` cursor and asks again with it: it misses nothing and sees nothing twice,
whatever crawls commit meanwhile and however often either side restarts."""

from __future__ import annotations

from gigflow.delivery import cursors
from gigflow.store import delivery as store

# Job events that are not changes of a published job: a new sighting is announced by its canonical job's
# 'created' or 'merged' event.
SKIPPED = frozenset({"seen"})


def head(conn) -> tuple[str, int, int]:
    """The newest position handed out now (a client that has just read every job starts here)."""
    row = store.feed_head(conn)
    return row.position if row else cursors.START


def page(conn, position: tuple[str, int, int], limit: int) -> tuple[list[store.ChangeRow], tuple[str, int, int]]:
    """The changes after ``position`` (at most ``limit`` positions read) and the position to ask from next."""
    rows = store.changes(conn, *position, limit)
    if rows:
        position = rows[-1].position
    changes = [row for row in rows if row.kind not in SKIPPED and row.canonical_id is not None]
    return changes, position


def change_payload(row: store.ChangeRow) -> dict:
    """One change as the API and the webhooks send it."""
    return {"cursor": cursors.feed_cursor(row.position), "kind": row.kind, "job_id": row.canonical_id,
            "sighting_id": row.job_id, "source_id": row.source_id, "fields": row.fields, "detail": row.detail,
            "at": row.at}
