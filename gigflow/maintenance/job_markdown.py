"""Per-job Markdown for jobs read from a payload (ATS boards, feeds): the description HTML the adapter read (found
again by its evidence path in the stored payload) goes through the same preparation as a page
(documents.DocumentPreparer). Locating the HTML is pure; `document_jobs` reads and writes the store."""

from __future__ import annotations

import html
import json
import re

from psycopg_pool import ConnectionPool

from gigflow.documents.preparer import DocumentPreparer
from gigflow.sql import load_sql

_SQL = "gigflow.maintenance"
PAYLOAD_PARSERS = ["greenhouse", "lever", "recruitee", "smartrecruiters", "workable", "feed"]
_STEP = re.compile(r"([^.\[\]/]+)|\[(\d+)\]")


def _walk(node, path: str):
    for name, index in _STEP.findall(path):
        if index:
            node = node[int(index)] if isinstance(node, list) and int(index) < len(node) else None
        elif isinstance(node, dict):
            node = node.get(name)
        else:
            return None
        if node is None:
            return None
    return node


def description_html(body: bytes, path: str) -> str | None:
    """The description markup at the adapter's evidence ``path`` in a stored payload (JSON, RSS/Atom or an XML
    job feed), or None when the path leads nowhere readable."""
    text = None
    path = path.removeprefix("$").lstrip(".")  # JSONPath's root
    stripped = body.lstrip()[:1]
    if stripped in (b"{", b"["):
        try:
            text = _walk(json.loads(body), path)
        except (ValueError, RecursionError):
            return None
    elif path.startswith("entries["):
        import feedparser

        parsed = feedparser.parse(body, sanitize_html=False)
        value = _walk(parsed, path)
        if value is None and path.endswith(".summary"):
            value = _walk(parsed, path.rsplit(".", 1)[0] + ".content[0].value")
        text = value
    elif "/" in path:
        from lxml import etree

        match = re.fullmatch(r"(\w+)\[(\d+)\]/(\w+)", path)
        if match:
            try:
                root = etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True,
                                                              huge_tree=False))
            except etree.XMLSyntaxError:
                return None
            jobs = root.findall(f".//{match.group(1)}")
            index = int(match.group(2))
            text = jobs[index].findtext(match.group(3)) if index < len(jobs) else None
    if not isinstance(text, str) or not text.strip():
        return None
    if "<" not in text and "&lt;" in text:  # entity-encoded markup (Greenhouse): decode once
        text = html.unescape(text)
    return text


def document_jobs(pool: ConnectionPool, client: DocumentPreparer, source_id: str | None = None) -> dict:
    """Prepare the Markdown of every payload job whose Markdown is missing or stale; returns counts."""
    counts = {"prepared": 0, "unreadable": 0}
    with pool.connection() as conn:
        jobs = conn.execute(load_sql(_SQL, "undocumented_jobs.sql"),
                            {"parser_keys": PAYLOAD_PARSERS, "source_id": source_id}).fetchall()
    body, body_version = None, None
    for job in jobs:
        if job["source_version_id"] != body_version:  # jobs come grouped by version: one payload in memory
            with pool.connection() as conn:
                row = conn.execute(load_sql(_SQL, "version_payload.sql"), {"id": job["source_version_id"]}).fetchone()
            body, body_version = (bytes(row["body"]) if row else b""), job["source_version_id"]
        markup = description_html(body, job["path"]) if body else None
        if markup is None:
            counts["unreadable"] += 1
            continue
        prepared = client.prepare(f"<html><body><main>{markup}</main></body></html>".encode(),
                                  url=job["url"] or "about:blank", content_type="text/html; charset=utf-8")
        with pool.connection() as conn:
            conn.execute(load_sql(_SQL, "upsert_job_document.sql"), {
                "job_id": job["id"], "source_version_id": job["source_version_id"], "path": job["path"],
                "markdown": prepared.markdown})
        counts["prepared"] += 1
    return counts
