"""Per-job Markdown for jobs read from a payload (ATS boards, feeds): the description HTML the adapter read (found
again by its evidence path in the stored payload) goes through the same preparation as a page
(documents.DocumentPreparer). Locating the HTML is pure; `document_jobs` reads and writes the store."""

from __future__ import annotations

import html
import json
import re

from psycopg_pool import ConnectionPool

from gigflow.documents.preparer import DocumentPreparer
from gigflow.maintenance.job_documents import save_job_document
from gigflow.store import jobs as store_jobs
from gigflow.store import versions as store_versions

PAYLOAD_PARSERS = ["greenhouse", "lever", "recruitee", "smartrecruiters", "workable", "feed"]
# Jobs of one payload version given per-job Markdown at most (MAINTENANCE_MAX_JOBS_PER_PAYLOAD's default).
MAX_JOBS_PER_PAYLOAD = 5000
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


class PayloadIndex:
    """One stored payload (JSON, RSS/Atom or an XML job feed) parsed once, its job descriptions looked up by the
    adapter's evidence path: every job of a version reads the same parse (a large feed parsed per job took hours)."""

    def __init__(self, body: bytes):
        self.body = body
        self._parsed = None
        self._kind: str | None = None
        self._xml_jobs: dict[str, list] = {}

    def _load(self, path: str) -> None:
        if self._kind is not None:
            return
        stripped = self.body.lstrip()[:1]
        if stripped in (b"{", b"["):
            self._kind = "json"
            try:
                self._parsed = json.loads(self.body)
            except (ValueError, RecursionError):
                self._parsed = None
        elif path.startswith("entries["):
            import feedparser

            self._kind = "feed"
            self._parsed = feedparser.parse(self.body, sanitize_html=False)
        else:
            from lxml import etree

            self._kind = "xml"
            try:
                self._parsed = etree.fromstring(self.body, etree.XMLParser(resolve_entities=False, no_network=True,
                                                                           huge_tree=False))
            except etree.XMLSyntaxError:
                self._parsed = None

    def description(self, path: str) -> str | None:
        """The description markup at ``path``, or None when the path leads nowhere readable."""
        path = path.removeprefix("$").lstrip(".")  # JSONPath's root
        self._load(path)
        if self._parsed is None:
            return None
        text = None
        if self._kind == "json":
            text = _walk(self._parsed, path)
        elif self._kind == "feed":
            if not path.startswith("entries["):
                return None
            text = _walk(self._parsed, path)
            if text is None and path.endswith(".summary"):
                text = _walk(self._parsed, path.rsplit(".", 1)[0] + ".content[0].value")
        elif "/" in path:
            match = re.fullmatch(r"(\w+)\[(\d+)\]/(\w+)", path)
            if match:
                jobs = self._xml_jobs.get(match.group(1))
                if jobs is None:
                    jobs = self._xml_jobs[match.group(1)] = self._parsed.findall(f".//{match.group(1)}")
                index = int(match.group(2))
                text = jobs[index].findtext(match.group(3)) if index < len(jobs) else None
        if not isinstance(text, str) or not text.strip():
            return None
        if "<" not in text and "&lt;" in text:  # entity-encoded markup (Greenhouse): decode once
            text = html.unescape(text)
        return text


def document_jobs(pool: ConnectionPool, client: DocumentPreparer, source_id: str | None = None, *,
                  max_jobs_per_payload: int = MAX_JOBS_PER_PAYLOAD, should_stop=None) -> dict:
    """Prepare the Markdown of every payload job whose Markdown is missing or stale; returns counts.

    Each stored payload version is read and parsed once for all its jobs; at most ``max_jobs_per_payload`` jobs
    of one version are prepared (0: no cap; the rest are counted as ``capped``). ``should_stop()`` is asked
    between jobs: when it says so (a shutdown), the work ends there and ``stopped`` is set; what is prepared is
    kept and the rest waits for the next run or the worker."""
    counts = {"prepared": 0, "unreadable": 0, "capped": 0, "stopped": False}
    with pool.connection() as conn:
        jobs = store_jobs.undocumented_payload_jobs(conn, PAYLOAD_PARSERS, source_id)
    index, body_version, taken = None, None, 0
    for job in jobs:
        if should_stop is not None and should_stop():
            counts["stopped"] = True
            break
        if job.source_version_id != body_version:  # jobs come grouped by version: one payload in memory
            index = None  # the previous payload and its parse go before the next is read
            with pool.connection() as conn:
                payload = store_versions.version_payload(conn, job.source_version_id)
            index = PayloadIndex(bytes(payload.body)) if payload and payload.body else None
            body_version, taken = job.source_version_id, 0
        if max_jobs_per_payload and taken >= max_jobs_per_payload:
            counts["capped"] += 1
            continue
        taken += 1
        markup = index.description(job.path) if index is not None else None
        if markup is None:
            counts["unreadable"] += 1
            continue
        prepared = client.prepare(f"<html><body><main>{markup}</main></body></html>".encode(),
                                  url=job.url or "about:blank", content_type="text/html; charset=utf-8")
        with pool.connection() as conn:
            save_job_document(conn, job.id, job.source_version_id, job.path, prepared.markdown)
        counts["prepared"] += 1
    return counts
