"""The owner of job_documents: each job's Markdown prepared from its payload's description (job_markdown.py
prepares it). Queries: ``job_documents.sql`` beside this module."""

from __future__ import annotations

from gigflow.sql import load_queries


def _sql(name: str) -> str:
    return load_queries("gigflow.maintenance", "job_documents.sql")[name]


def save_job_document(conn, job_id: int, source_version_id: int, path: str, markdown: str) -> None:
    """Store (or replace) a job's Markdown with the payload version and evidence path it was read from."""
    conn.execute(_sql("upsert_job_document"), {"job_id": job_id, "source_version_id": source_version_id,
                                               "path": path, "markdown": markdown})
