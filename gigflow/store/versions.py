"""source_versions: one version per change of a URL's prepared content or jobs; raw bodies stored once by sha256."""

from __future__ import annotations

import hashlib
import json

from gigflow.sql import load_sql


def _sql(name: str) -> str:
    return load_sql("gigflow.store", name)


def latest_validators(conn, source_id: str, url: str) -> dict | None:
    """The URL's newest version: its id, ETag, Last-Modified and the noise filter its Markdown was prepared with."""
    return conn.execute(_sql("latest_validators.sql"), {"source_id": source_id, "url": url}).fetchone()


def stored_body(conn, source_id: str, version_id: int) -> dict | None:
    """One version of this source: body, content type, Markdown and preparation report."""
    return conn.execute(_sql("stored_body.sql"), {"id": version_id, "source_id": source_id}).fetchone()


def version_body(conn, version_id: int) -> dict | None:
    """One version, whatever its source (re-extraction walks every source)."""
    return conn.execute(_sql("version_body.sql"), {"id": version_id}).fetchone()


def latest_version(conn, source_id: str, url: str) -> dict | None:
    """The URL's newest version with its body: read again when the page is known unchanged."""
    return conn.execute(_sql("latest_version.sql"), {"source_id": source_id, "url": url}).fetchone()


def latest_fetch_times(conn, source_id: str) -> list[dict]:
    """When each URL of the source was last stored."""
    return conn.execute(_sql("latest_fetch_times.sql"), {"source_id": source_id}).fetchall()


def stored_messages(conn, source_id: str, content_type: str) -> list[dict]:
    """URL and sha256 of the versions of this content type (a mailbox's e-mails)."""
    return conn.execute(_sql("stored_messages.sql"), {"source_id": source_id, "content_type": content_type}).fetchall()


def jobs_digest(jobs: list[dict]) -> str:
    """sha256 of the extracted jobs (order and key order aside): equal digests, equal jobs."""
    canonical = sorted(json.dumps(job, sort_keys=True, default=str) for job in jobs)
    return hashlib.sha256("\n".join(canonical).encode("utf-8")).hexdigest()


def store_fetch(conn, params: dict) -> dict:
    """Store one fetched page; returns the version's ``id``, its body's ``sha256`` and ``status``: ``new`` (a new
    version), ``refreshed`` (other bytes, same Markdown and jobs: the newest version marked fetched now with this
    fetch's validators), ``reprepared`` (same bytes, new Markdown) or ``unchanged`` (same bytes).

    ``params``: source_id, url, http_status, content_type, etag, last_modified, sha256, size, body, markdown,
    preparation, jobs_digest."""
    markdown = params["markdown"]
    params = {**params, "markdown_sha256": hashlib.sha256(markdown.encode("utf-8")).hexdigest()
              if markdown is not None else None}
    current = conn.execute(_sql("current_version.sql"), params).fetchone()
    if (current is not None and current["sha256"] != params["sha256"] and markdown is not None
            and current["markdown_sha256"] == params["markdown_sha256"]
            and current["jobs_digest"] == params["jobs_digest"]):
        conn.execute(_sql("refresh_version.sql"), {**params, "id": current["id"]})
        return {"id": current["id"], "sha256": current["sha256"], "status": "refreshed"}
    conn.execute(_sql("insert_body.sql"), params)
    if markdown is not None:
        conn.execute(_sql("insert_markdown.sql"), params)
    row = conn.execute(_sql("insert_version.sql"), params).fetchone()
    status = "new" if row["inserted"] else "reprepared" if row["reprepared"] else "unchanged"
    return {"id": row["id"], "sha256": params["sha256"], "status": status}


def version_summary(conn, version_id: int) -> dict | None:
    """sha256, size, content type and Markdown of one version: what an export of a 304 carries."""
    return conn.execute(_sql("get_version_summary.sql"), {"source_version_id": version_id}).fetchone()


def latest_versions_with_parsers(conn, source_id: str | None) -> list[dict]:
    """Each URL's newest version (of one source, or all) with the parser versions its jobs were read with."""
    return conn.execute(_sql("version_jobs_parser.sql"), {"source_id": source_id}).fetchall()


def version_for_reprepare(conn, version_id: int) -> dict | None:
    """One version with its bytes, type, current Markdown and fetch time: what preparing it again needs."""
    return conn.execute(_sql("version_for_reprepare.sql"), {"id": version_id}).fetchone()


def reprepare_version(conn, version_id: int, markdown: str, preparation, jobs_digest_: str) -> None:
    """Store a version's new Markdown (prepared again from its own bytes), its report and its jobs' digest."""
    params = {"id": version_id, "markdown": markdown, "preparation": preparation, "jobs_digest": jobs_digest_,
              "markdown_sha256": hashlib.sha256(markdown.encode("utf-8")).hexdigest()}
    conn.execute(_sql("insert_markdown.sql"), params)
    conn.execute(_sql("reprepare_version.sql"), params)
