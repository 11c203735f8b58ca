"""Retention of source versions and bodies (VERSION_RETENTION_DAYS; `scrapy db prune`)."""

from __future__ import annotations

from gigflow.sql import load_sql


class _DryRun(Exception):
    """Raised to roll the prune back after counting what it would delete."""


def prune(pool, days: float, dry_run: bool = False) -> dict:
    """Delete versions not fetched for ``days`` days that nothing keeps, then unreferenced bodies and Markdown, in
    one transaction. A dry run counts the same rows and rolls back. Returns versions, bodies, body bytes and
    Markdown documents removed."""
    if days <= 0:
        return {"versions": 0, "bodies": 0, "bytes": 0, "markdowns": 0}
    counts = {}
    with pool.connection() as conn:
        try:
            with conn.transaction():
                removed = conn.execute(load_sql("gigflow.store", "prune_versions.sql"), {"days": days}).fetchall()
                bodies = conn.execute(load_sql("gigflow.store", "prune_bodies.sql")).fetchall()
                markdowns = conn.execute(load_sql("gigflow.store", "prune_markdowns.sql")).fetchall()
                counts = {"versions": len(removed), "bodies": len(bodies), "bytes": sum(b["size"] for b in bodies),
                          "markdowns": len(markdowns)}
                if dry_run:
                    raise _DryRun
        except _DryRun:
            pass
    return counts
