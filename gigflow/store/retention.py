"""Retention of source versions, bodies and their Markdown files (VERSION_RETENTION_DAYS), and of crawl runs with
their health rows (RUN_RETENTION_DAYS); `scrapy db prune`. Queries: ``retention.sql`` beside this module."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from gigflow.paths import markdown_path
from gigflow.sql import fetch_rows, fetch_values, load_queries

logger = logging.getLogger(__name__)
FILE_BATCH = 1000  # pruned files checked per query (two arrays of this many ids and digests)


def _sql(name: str) -> str:
    return load_queries("gigflow.store", "retention.sql")[name]


@dataclass(frozen=True)
class PruneCounts:
    """What a prune removed (or, dry, would remove): versions, bodies, body bytes, Markdown documents and files."""
    versions: int = 0
    bodies: int = 0
    bytes: int = 0
    markdowns: int = 0
    files: int = 0


@dataclass(frozen=True)
class _PrunedVersion:
    id: int
    source_id: str
    sha256: str


@dataclass(frozen=True)
class _VersionFile:
    source_id: str
    sha256: str


class _DryRun(Exception):
    """Raised to roll the prune back after counting what it would delete."""


def prune(pool, days: float, dry_run: bool = False, markdown_dir: str = "") -> PruneCounts:
    """Delete versions not fetched for ``days`` days that nothing keeps, then unreferenced bodies and Markdown, in
    one transaction; after it commits, the Markdown files (under ``markdown_dir``) no remaining version of their
    source stands for. A dry run counts the same rows and files and rolls back. Returns versions, bodies, body
    bytes, Markdown documents and files removed."""
    if days <= 0:
        return PruneCounts()
    counts, files = PruneCounts(), []
    with pool.connection() as conn:
        try:
            with conn.transaction():
                removed = fetch_rows(conn, _PrunedVersion, _sql("prune_versions"), {"days": days})
                sizes = fetch_values(conn, _sql("prune_bodies"))
                markdowns = fetch_values(conn, _sql("prune_markdowns"))
                files = _files_to_delete(conn, markdown_dir, {(row.source_id, row.sha256) for row in removed})
                counts = PruneCounts(versions=len(removed), bodies=len(sizes), bytes=sum(sizes),
                                     markdowns=len(markdowns), files=len(files))
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
        kept = {(row.source_id, row.sha256) for row in fetch_rows(
            conn, _VersionFile, _sql("version_files_kept"),
            {"source_ids": [pair[0] for pair in batch], "sha256s": [pair[1] for pair in batch]})}
        files += [present[pair] for pair in batch if pair not in kept]
    return files


def prune_runs(pool, days: float, keep: int, dry_run: bool = False) -> int:
    """Delete finished runs (and their run_health rows) older than ``days`` that nothing needs (retention.sql: prune_runs);
    how many."""
    if days <= 0:
        return 0
    with pool.connection() as conn:
        try:
            with conn.transaction():
                removed = fetch_values(conn, _sql("prune_runs"), {"days": days, "keep": keep})
                if dry_run:
                    raise _DryRun
        except _DryRun:
            pass
    return len(removed)
