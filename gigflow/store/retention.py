"""Retention of source versions, bodies and their Markdown files (VERSION_RETENTION_DAYS), and of crawl runs with
their health rows (RUN_RETENTION_DAYS); `scrapy db prune`."""

from __future__ import annotations

import logging

from gigflow.paths import markdown_path
from gigflow.sql import load_sql

logger = logging.getLogger(__name__)
FILE_BATCH = 1000  # pruned files checked per query (two arrays of this many ids and digests)


class _DryRun(Exception):
    """Raised to roll the prune back after counting what it would delete."""


def prune(pool, days: float, dry_run: bool = False, markdown_dir: str = "") -> dict:
    """Delete versions not fetched for ``days`` days that nothing keeps, then unreferenced bodies and Markdown, in
    one transaction; after it commits, the Markdown files (under ``markdown_dir``) no remaining version of their
    source stands for. A dry run counts the same rows and files and rolls back. Returns versions, bodies, body
    bytes, Markdown documents and files removed."""
    if days <= 0:
        return {"versions": 0, "bodies": 0, "bytes": 0, "markdowns": 0, "files": 0}
    counts, files = {}, []
    with pool.connection() as conn:
        try:
            with conn.transaction():
                removed = conn.execute(load_sql("gigflow.store", "prune_versions.sql"), {"days": days}).fetchall()
                bodies = conn.execute(load_sql("gigflow.store", "prune_bodies.sql")).fetchall()
                markdowns = conn.execute(load_sql("gigflow.store", "prune_markdowns.sql")).fetchall()
                files = _files_to_delete(conn, markdown_dir, {(row["source_id"], row["sha256"]) for row in removed})
                counts = {"versions": len(removed), "bodies": len(bodies), "bytes": sum(b["size"] for b in bodies),
                          "markdowns": len(markdowns), "files": len(files)}
                if dry_run:
                    raise _DryRun
        except _DryRun:
            return counts
    for path in files:  # after the commit: a failed prune never loses a file a version still stands for
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            logger.warning("could not delete %s: %s", path, exc)
    return counts


def _files_to_delete(conn, markdown_dir: str, pairs: set[tuple[str, str]]) -> list:
    """The Markdown files of the pruned (source, body) pairs that exist and that no remaining version of their
    source stands for; one query per FILE_BATCH files."""
    present = {pair: path for pair in sorted(pairs)
               if (path := markdown_path(markdown_dir, *pair)) is not None and path.exists()}
    candidates, files = list(present), []
    for start in range(0, len(candidates), FILE_BATCH):
        batch = candidates[start:start + FILE_BATCH]
        kept = {(row["source_id"], row["sha256"]) for row in conn.execute(
            load_sql("gigflow.store", "version_files_kept.sql"),
            {"source_ids": [pair[0] for pair in batch], "sha256s": [pair[1] for pair in batch]})}
        files += [present[pair] for pair in batch if pair not in kept]
    return files


def prune_runs(pool, days: float, keep: int, dry_run: bool = False) -> int:
    """Delete finished runs (and their run_health rows) older than ``days`` that nothing needs (prune_runs.sql);
    how many."""
    if days <= 0:
        return 0
    with pool.connection() as conn:
        try:
            with conn.transaction():
                removed = conn.execute(load_sql("gigflow.store", "prune_runs.sql"),
                                       {"days": days, "keep": keep}).fetchall()
                if dry_run:
                    raise _DryRun
        except _DryRun:
            pass
    return len(removed)
