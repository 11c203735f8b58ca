"""Crawl claims whose holder died: released at once (``scrapy sources sweep``, every schedule-due pass)."""

from __future__ import annotations

import logging

from gigflow.sql import load_sql

logger = logging.getLogger(__name__)


def release_dead_claims(pool) -> list[str]:
    """Delete the claims whose holding process is gone (its liveness key is free); the ids of their sources."""
    with pool.connection() as conn:
        released = [row["source_id"] for row in
                    conn.execute(load_sql("gigflow.scheduling", "release_dead_claims.sql")).fetchall()]
    if released:
        logger.info("released %d claim(s) whose holder is gone: %s", len(released), ", ".join(released))
    return released
