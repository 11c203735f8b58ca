"""source_versions: one version per change of a URL's prepared content or jobs; raw bodies stored once by sha256.

Queries: ``versions.sql`` beside this module."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from dataclasses import dataclass
from datetime import datetime

from gigflow.paths import MIGRATED_MARKER, legacy_markdown_root, markdown_root
from gigflow.sql import fetch_row, fetch_rows, load_queries

logger = logging.getLogger(__name__)


def _sql(name: str) -> str:
    return load_queries("gigflow.store", "versions.sql")[name]


@dataclass(frozen=True)
class Validators:
    """The URL's newest version: its id, the validators its server sent, the noise filter its Markdown used."""
    id: int
    etag: str | None
    last_modified: str | None
    noise_filter: str | None


@dataclass(frozen=True)
class StoredBody:
    """A stored version's bytes with their type, Markdown and preparation report."""
    body: bytes
    content_type: str | None
    markdown: str | None
    preparation: dict | None


@dataclass(frozen=True)
class LatestVersion:
    """The URL's newest version with its bytes (read again when the page is known unchanged)."""
    id: int
    body: bytes
    content_type: str | None
    markdown: str | None
    preparation: dict | None


@dataclass(frozen=True)
class FetchTime:
    url: str
    fetched_at: datetime


@dataclass(frozen=True)
class StoredMessage:
    url: str
    sha256: str


@dataclass(frozen=True)
class _CurrentVersion:
    id: int
    sha256: str
    markdown_sha256: str | None
    jobs_digest: str | None


@dataclass(frozen=True)
class _InsertedVersion:
    id: int
    inserted: bool
    reprepared: bool


@dataclass(frozen=True)
class StoredFetch:
    """What storing one fetch did: the version's id, its body's sha256 and ``status`` (see ``store_fetch``)."""
    id: int
    sha256: str
    status: str


@dataclass(frozen=True)
class VersionSummary:
    """What an export of a 304 carries."""
    sha256: str
    size: int
    content_type: str | None
    markdown: str | None


@dataclass(frozen=True)
class VersionParsers:
    """A URL's newest version with the parser versions its jobs were read with."""
    id: int
    source_id: str
    url: str
    content_type: str | None
    fetched_at: datetime
    parser_versions: list[str] | None


@dataclass(frozen=True)
class RepreparableVersion:
    """One version with what preparing it again needs."""
    id: int
    source_id: str
    url: str
    content_type: str | None
    fetched_at: datetime
    body: bytes
    markdown: str | None
    sha256: str = ""


def latest_validators(conn, source_id: str, url: str) -> Validators | None:
    """The URL's newest version: its id, ETag, Last-Modified and the noise filter its Markdown was prepared with."""
    return fetch_row(conn, Validators, _sql("latest_validators"), {"source_id": source_id, "url": url})


def stored_body(conn, source_id: str, version_id: int) -> StoredBody | None:
    """One version of this source: body, content type, Markdown and preparation report."""
    return fetch_row(conn, StoredBody, _sql("stored_body"), {"id": version_id, "source_id": source_id})


def version_body(conn, version_id: int) -> StoredBody | None:
    """One version, whatever its source (re-extraction walks every source)."""
    return fetch_row(conn, StoredBody, _sql("version_body"), {"id": version_id})


def latest_version(conn, source_id: str, url: str) -> LatestVersion | None:
    """The URL's newest version with its body: read again when the page is known unchanged."""
    return fetch_row(conn, LatestVersion, _sql("latest_version"), {"source_id": source_id, "url": url})


def latest_fetch_times(conn, source_id: str) -> list[FetchTime]:
    """When each URL of the source was last stored."""
    return fetch_rows(conn, FetchTime, _sql("latest_fetch_times"), {"source_id": source_id})


def stored_messages(conn, source_id: str, content_type: str) -> list[StoredMessage]:
    """URL and sha256 of the versions of this content type (a mailbox's e-mails)."""
    return fetch_rows(conn, StoredMessage, _sql("stored_messages"),
                      {"source_id": source_id, "content_type": content_type})


def jobs_digest(jobs: list[dict]) -> str:
    """sha256 of the extracted jobs (order and key order aside): equal digests, equal jobs."""
    canonical = sorted(json.dumps(job, sort_keys=True, default=str) for job in jobs)
    return hashlib.sha256("\n".join(canonical).encode("utf-8")).hexdigest()


def store_fetch(conn, params: dict) -> StoredFetch:
    """Store one fetched page; returns the version's ``id``, its body's ``sha256`` and ``status``: ``new`` (a new
    version), ``refreshed`` (other bytes, same Markdown and jobs: the newest version marked fetched now with this
    fetch's validators), ``reprepared`` (same bytes, new Markdown) or ``unchanged`` (same bytes).

    ``params``: source_id, url, http_status, content_type, etag, last_modified, sha256, size, body, markdown,
    preparation, jobs_digest."""
    markdown = params["markdown"]
    params = {**params, "markdown_sha256": hashlib.sha256(markdown.encode("utf-8")).hexdigest()
              if markdown is not None else None}
    current = fetch_row(conn, _CurrentVersion, _sql("current_version"), params)
    if (current is not None and current.sha256 != params["sha256"] and markdown is not None
            and current.markdown_sha256 == params["markdown_sha256"]
            and current.jobs_digest == params["jobs_digest"]):
        conn.execute(_sql("refresh_version"), {**params, "id": current.id})
        return StoredFetch(current.id, current.sha256, "refreshed")
    conn.execute(_sql("insert_body"), params)
    if markdown is not None:
        conn.execute(_sql("insert_markdown"), params)
    row = fetch_row(conn, _InsertedVersion, _sql("insert_version"), params)
    status = "new" if row.inserted else "reprepared" if row.reprepared else "unchanged"
    return StoredFetch(row.id, params["sha256"], status)


def version_summary(conn, version_id: int) -> VersionSummary | None:
    """sha256, size, content type and Markdown of one version: what an export of a 304 carries."""
    return fetch_row(conn, VersionSummary, _sql("version_summary"), {"source_version_id": version_id})


def latest_versions_with_parsers(conn, source_id: str | None) -> list[VersionParsers]:
    """Each URL's newest version (of one source, or all) with the parser versions its jobs were read with."""
    return fetch_rows(conn, VersionParsers, _sql("latest_versions_with_parsers"), {"source_id": source_id})


def version_for_reprepare(conn, version_id: int) -> RepreparableVersion | None:
    """One version with its bytes, type, current Markdown and fetch time: what preparing it again needs."""
    return fetch_row(conn, RepreparableVersion, _sql("version_for_reprepare"), {"id": version_id})


def reprepare_version(conn, version_id: int, markdown: str, preparation, jobs_digest_: str) -> None:
    """Store a version's new Markdown (prepared again from its own bytes), its report and its jobs' digest."""
    params = {"id": version_id, "markdown": markdown, "preparation": preparation, "jobs_digest": jobs_digest_,
              "markdown_sha256": hashlib.sha256(markdown.encode("utf-8")).hexdigest()}
    conn.execute(_sql("insert_markdown"), params)
    conn.execute(_sql("reprepare_version"), params)


@dataclass(frozen=True)
class Payload:
    body: bytes
    content_type: str | None


def version_payload(conn, version_id: int) -> Payload | None:
    """A version's bytes and type: a payload of many jobs (an ATS board, a feed) their documents are read from."""
    return fetch_row(conn, Payload, _sql("version_payload"), {"id": version_id})


@dataclass(frozen=True)
class VersionFile:
    """A (source, body) pair a Markdown file may exist for."""
    source_id: str
    sha256: str


def migrate_markdown_files(pool, markdown_dir: str) -> int:
    """Copy into MARKDOWN_DIR the files of the old location that this database's versions stand for (copies: other
    homes may share the old folder); once per home (a marker file, written only when every file was copied).
    Run with the schema migrations (`scrapy db upgrade`, and a process's first use of its home database, which
    may be a crawl's start: once per home, then the marker answers). Returns how many were copied; a file that cannot be copied is a warning, and the next run tries again."""
    root = markdown_root(markdown_dir)
    legacy = legacy_markdown_root()
    if root is None or not legacy.is_dir() or (root / MIGRATED_MARKER).exists():
        return 0
    if root.resolve() == legacy.resolve():
        return 0
    copied, failed = 0, []
    with pool.connection() as conn:
        files = fetch_rows(conn, VersionFile, _sql("version_files"))
    for source_id, sha256 in ((file.source_id, file.sha256) for file in files):
        old = legacy / source_id / f"{sha256[:16]}.md"
        new = root / source_id / f"{sha256[:16]}.md"
        try:
            if old.is_file() and not new.exists():
                new.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(old, new)
                copied += 1
        except OSError as exc:
            failed.append(f"{old}: {exc.strerror or type(exc).__name__}")
    if failed:  # no marker: the next start copies what is still missing
        logger.warning("could not copy %d Markdown file(s) from %s into %s (tried again next time), e.g. %s",
                       len(failed), legacy, root, failed[0])
    else:
        try:
            root.mkdir(parents=True, exist_ok=True)
            (root / MIGRATED_MARKER).write_text(f"{legacy}\n", encoding="utf-8")
        except OSError as exc:
            logger.warning("could not mark %s as migrated: %s", root, exc.strerror or type(exc).__name__)
    if copied:
        logger.warning("copied %d Markdown file(s) from %s into %s (inside GIGFLOW_HOME); the old folder is no longer "
                       "read and may be removed once no other home uses it", copied, legacy, root)
    return copied

@dataclass(frozen=True)
class VersionHead:
    id: int
    url: str
    http_status: int | None
    content_type: str | None


def all_versions(conn) -> list[VersionHead]:
    return fetch_rows(conn, VersionHead, _sql("all_versions"))
