"""Keeps the list/search read model (delivery_jobs) in step with the canonical jobs: a consumer of the change
feed. It stores its position in the same transaction as the rows it rebuilt, so a restart resumes exactly; the
first run rebuilds every canonical job, then follows the feed from where the rebuild began.

`scrapy serve-api` runs it every API_INDEX_INTERVAL seconds; `scrapy api index` runs it once."""

from __future__ import annotations

import hashlib
import json
from datetime import date

from gigflow.db.queries import release_session_lock, try_session_lock
from gigflow.delivery import feed, language
from gigflow.store import delivery as store

CURSOR = "indexer"
_LOCK_KEY = 0x6769_6164  # one indexer at a time across processes (a session advisory lock)
BODY_CHARS = 20_000      # of the description indexed (a job's tail adds little but weight)


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    if isinstance(value, dict):
        return " ".join(_text(v) for v in value.values())
    return str(value)


def _date(value) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def index_row(source: store.IndexSource) -> dict:
    """The read-model row of one canonical job from its best sighting's fields. Pure."""
    fields = source.fields or {}
    title = source.title or ""
    location = _text(fields.get("location")) or _text(fields.get("locations")) or None
    description = " ".join(_text(fields.get(name)) for name in ("description", "requirements"))[:BODY_CHARS]
    config = language.detect(title + "\n" + description)
    employer = _text(fields.get("employer")) or None
    remote = (_text(fields.get("remote")).lower() or None)
    employment_type = _text(fields.get("employment_type")) or None
    extra_title, body = "", description
    if config == "simple":
        extra_title, body = language.cjk_bigrams(title), language.cjk_bigrams(description)
    fold = language.accent_free_variants
    row = {"canonical_id": source.canonical_id, "title": title, "employer": employer, "location": location,
           "remote": remote, "employment_type": employment_type, "date_posted": _date(fields.get("date_posted")),
           "source_ids": source.source_ids or [], "language": config,
           "extra_title": f"{extra_title} {fold(title)}", "body": f"{body} {fold(body)}",
           "extra_names": f"{fold(employer or '')}", "extra_location": fold(location or "")}
    row["digest"] = hashlib.sha256(json.dumps(row, sort_keys=True, default=str).encode()).hexdigest()
    return row


def refresh(conn, canonical_ids: list[int]) -> int:
    """Rebuild these canonical jobs' rows (remove folded ones); how many were looked at."""
    ids = sorted(set(canonical_ids))
    if not ids:
        return 0
    sources = store.index_sources(conn, ids)
    gone = [s.canonical_id for s in sources if s.gone]
    if gone:
        store.delete_index_rows(conn, gone)
    rows = [index_row(s) for s in sources if not s.gone]
    if rows:
        store.upsert_index_rows(conn, rows)
    return len(ids)


def catch_up(pool, *, batch: int = 500, max_batches: int | None = None) -> dict:
    """Apply the feed since the stored position (or rebuild everything on the first run). Returns counts; skips
    (returns {"busy": True}) when another process is indexing.

    Each batch is its own short transaction: a long one would hold the change feed back for every reader (the
    feed waits for the oldest running transaction). A session advisory lock keeps indexers from overlapping."""
    counts = {"events": 0, "jobs": 0, "rebuilt": 0}
    with pool.connection() as conn:
        if not try_session_lock(conn, _LOCK_KEY):
            conn.commit()
            return {"busy": True}
        conn.commit()
        try:
            if store.cursor_position(conn, CURSOR) is None:
                conn.commit()
                counts["rebuilt"] = _rebuild(conn, batch)
                return counts
            conn.commit()
            done = 0
            while max_batches is None or done < max_batches:
                with conn.transaction():
                    position = tuple(json.loads(store.cursor_position(conn, CURSOR)))
                    rows = store.changes(conn, *position, batch)
                    if not rows:
                        return counts
                    counts["events"] += len(rows)
                    counts["jobs"] += refresh(conn, [r.canonical_id for r in rows if r.canonical_id is not None])
                    last = rows[-1]
                    store.save_cursor_position(conn, CURSOR, json.dumps(list(last.position)))
                done += 1
            return counts
        finally:
            release_session_lock(conn, _LOCK_KEY)
            conn.commit()


def _rebuild(conn, batch: int) -> int:
    """Every canonical job, a batch per transaction, then the feed position it started from: changes made while
    it ran are applied again by the next catch-up (harmless: rows are rebuilt from the current state)."""
    with conn.transaction():
        start = feed.head(conn)
    after, total = 0, 0
    while True:
        with conn.transaction():
            ids = store.canonical_ids_after(conn, after, batch)
            if not ids:
                break
            total += refresh(conn, ids)
        after = ids[-1]
    with conn.transaction():
        store.save_cursor_position(conn, CURSOR, json.dumps(list(start)))
    return total


def reset(pool) -> None:
    """Forget the position: the next catch-up rebuilds everything (after a change of language rules)."""
    with pool.connection() as conn:
        store.forget_cursor(conn, CURSOR)

