"""crawl_claims: which due sources a ``schedule-due`` pass handed out and which process holds each, and the one
pass at a time lock. Claims whose holder died are released at once (``scrapy sources sweep``, every schedule-due
pass). Every scheduling module calls these functions; the SQL is ``claims.sql`` beside this module."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from psycopg.types.json import Jsonb

from gigflow.sql import fetch_rows, fetch_values, load_queries

logger = logging.getLogger(__name__)


def _sql(name: str) -> str:
    return load_queries("gigflow.scheduling", "claims.sql")[name]


@dataclass(frozen=True)
class DueSource:
    """A source due for a crawl: its strategies (JSON, as stored) and canonical URL plan its jobs."""
    id: str
    strategies: list[dict]
    canonical_url: str | None
    next_crawl_at: datetime | None = None  # shown by a dry run; a claim does not read it


def due_sources(conn, limit: int | None) -> list[DueSource]:
    """What a pass would claim (at most ``limit``, None: all), claiming nothing (schedule-due --dry-run)."""
    return fetch_rows(conn, DueSource, _sql("due_sources"), {"limit": limit})


def claim_due_sources(conn, limit: int, claim_seconds: float) -> list[DueSource]:
    """Claim up to ``limit`` due sources no crawl holds, for ``claim_seconds``; never one source twice."""
    return fetch_rows(conn, DueSource, _sql("claim_due_sources"), {"limit": limit, "claim_seconds": claim_seconds})


def hold_claims(conn, source_ids: list[str], claim_seconds: float, holder_lock: int) -> None:
    """The sources are claimed by the process holding ``holder_lock`` (its liveness key) for ``claim_seconds``
    from now, or longer if already so."""
    conn.execute(_sql("hold_claims"),
                 {"source_ids": source_ids, "claim_seconds": claim_seconds, "holder_lock": holder_lock})


def record_claim_jobs(conn, source_id: str, jobs: list[dict]) -> None:
    conn.execute(_sql("record_claim_jobs"), {"source_id": source_id, "jobs": Jsonb(jobs)})


def release_claim(conn, source_id: str) -> None:
    conn.execute(_sql("release_claim"), {"source_id": source_id})


def take_pass_lock(conn) -> None:
    """Wait for, then hold until ``conn``'s session ends, the one schedule-due pass lock."""
    conn.execute(_sql("pass_lock"))


def release_dead_claims(pool) -> list[str]:
    """Delete the claims whose holding process is gone (its liveness key is free); the ids of their sources."""
    with pool.connection() as conn:
        released = fetch_values(conn, _sql("release_dead_claims"))
    if released:
        logger.info("released %d claim(s) whose holder is gone: %s", len(released), ", ".join(released))
    return released
