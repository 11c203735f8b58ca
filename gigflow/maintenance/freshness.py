"""The freshness sweep: flag expired (validThrough passed, or a live sighting's page says the vacancy is closed)
and stale (not seen for FRESHNESS_STALE_DAYS) canonical jobs, store the quality score with its parts, and apply
the publish gate (`published_at`). Each change is a canonical event: expired, unexpired, stale, fresh, published,
unpublished."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timezone

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from gigflow.maintenance import canonical, quality
from gigflow.maintenance.canonical import CanonicalState


@dataclass(frozen=True)
class FreshnessSettings:
    stale_days: float = 14.0     # FRESHNESS_STALE_DAYS
    min_score: int = 40          # QUALITY_PUBLISH_MIN_SCORE
    page_size: int = 500

    @classmethod
    def from_settings(cls, settings) -> "FreshnessSettings":
        return cls(stale_days=settings.getfloat("FRESHNESS_STALE_DAYS"),
                   min_score=settings.getint("QUALITY_PUBLISH_MIN_SCORE"))


def parse_valid_through(value: str) -> datetime | None:
    """An ISO date or date-time (a date lasts to its end, in UTC); None for anything else."""
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None
    if len(value.strip()) <= 10:
        parsed = datetime.combine(parsed.date(), time.max)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def sweep(pool: ConnectionPool, settings: FreshnessSettings = FreshnessSettings()) -> dict:
    counts = {"checked": 0, "expired": 0, "stale": 0, "published": 0, "unpublished": 0}
    after = 0
    while True:
        with pool.connection() as conn:
            rows = canonical.canonical_state_page(conn, after, settings.page_size)
        if not rows:
            return counts
        with pool.connection() as conn, conn.transaction():
            for row in rows:
                for kind in _update(conn, row, settings):
                    counts[kind] = counts.get(kind, 0) + 1
                counts["checked"] += 1
        after = rows[-1].id


def _update(conn, row: CanonicalState, settings: FreshnessSettings) -> list[str]:
    now = row.now
    ends = [d for d in map(parse_valid_through, row.valid_through) if d is not None]
    # Expired when its closing date has passed or its own page says the vacancy is closed.
    expired = (bool(ends) and max(ends) < now) or bool(row.closed_notice)
    stale = row.age_days > settings.stale_days
    fields = {**(row.fields or {}), "title": row.title, "url": row.url}
    score, parts = quality.score(fields, confidence=row.confidence, sources=row.sources,
                                 age_days=float(row.age_days), stale_days=settings.stale_days,
                                 expired=expired, live=row.live)
    blocked = quality.publishable(score, min_score=settings.min_score, link_status=row.link_status,
                                  expired=expired, duplicate=False)
    parts["publish_blocked_by"] = blocked
    state = {
        "id": row.id, "quality_score": score, "quality_parts": Jsonb(parts),
        "expired_at": (row.expired_at or now) if expired else None,
        "stale_at": (row.stale_at or now) if stale else None,
        "published_at": None if blocked else (row.published_at or now),
    }
    canonical.write_state(conn, state)
    changes = []
    for name, before, after, on, off in (
            ("expired", row.expired_at, state["expired_at"], "expired", "unexpired"),
            ("stale", row.stale_at, state["stale_at"], "stale", "fresh"),
            ("published", row.published_at, state["published_at"], "published", "unpublished")):
        if (before is None) != (after is None):
            kind = on if after is not None else off
            detail = {"quality_score": score, "blocked_by": blocked} if name == "published" else {}
            if name == "expired":
                detail = {"valid_through": max(ends).isoformat() if ends else None,
                          "closed_notice": (row.closed_notice or "")[:200] or None}
            if name == "stale":
                detail = {"last_seen": row.last_seen.isoformat(), "stale_days": settings.stale_days}
            canonical.add_event(conn, row.id, kind, detail)
            changes.append(kind)
    return changes
