"""Preparing stored versions again after a noise filter changed: no refetch, jobs re-extracted, with events.
(Upkeep, not the crawl path: it prepares, extracts and writes jobs, so it lives beside the other worker tasks.)

A page whose bytes do not change is never prepared again by a crawl: a sitemap whose ``lastmod`` stands still is
not even requested. So when a configuration's filter is saved, the current version of each of its URLs is
prepared again from its stored bytes; where the Markdown changes, the version keeps its bytes and gets the new
Markdown, and its jobs are written again from it (a job's description is the page's prepared Markdown): each
gets a ``reextracted`` event, and an ``updated`` event naming the fields that changed.
"""

from __future__ import annotations

import logging

from psycopg.types.json import Jsonb

from gigflow.adapters import extract
from gigflow.adapters.page import page_jobs
from gigflow.documents.preparer import DocumentPreparer
from gigflow.documents.sniff import sniff_format
from gigflow.noise.current import DEFAULT_MAX_BYTES, get_current_noise_filter
from gigflow.noise.events import emit
from gigflow.paths import markdown_path
from gigflow.store.job_writer import JobWriter
from gigflow.sources.repository import configuration_sources, get_source
from gigflow.store import versions as store_versions

logger = logging.getLogger(__name__)


def reprepare_configuration(pool, configuration_id: int, *, preparer: DocumentPreparer | None = None,
                            max_filter_bytes: int = DEFAULT_MAX_BYTES, markdown_dir: str = "") -> dict:
    """Prepare the current version of every URL of the configuration's sources again with its current filter.
    Where the crawl wrote the version's Markdown file (``markdown_dir``: MARKDOWN_DIR), the file gets the new
    Markdown too: `scrapy jobs` shows that file. Returns counts: versions looked at, reprepared (Markdown changed),
    unchanged, skipped (not HTML), and the job outcomes (reextracted, changed, new)."""
    counts = {"versions": 0, "reprepared": 0, "unchanged": 0, "skipped": 0, "reextracted": 0, "changed": 0,
              "new": 0}
    preparer = preparer or DocumentPreparer()
    writer = JobWriter(run_id=None)
    for source_id in configuration_sources(pool, configuration_id):
        record = get_source(pool, source_id)
        noise_filter = get_current_noise_filter(record.stored_config, record.config_hash, max_filter_bytes)
        # As learning and the crawl's cards rule: the href strategy's card rules, else the click strategy's.
        strategy = record.config.strategy("href") or record.config.strategy("click")
        with pool.connection() as conn:
            latest = store_versions.latest_versions_with_parsers(conn, source_id)
        for version in latest:
            counts["versions"] += 1
            with pool.connection() as conn, conn.transaction():
                stored = store_versions.version_for_reprepare(conn, version.id)
                body = bytes(stored.body)
                if sniff_format(body, stored.url, stored.content_type) != "html":
                    counts["skipped"] += 1
                    continue
                document = preparer.prepare(body, stored.url, content_type=stored.content_type,
                                            strategy=strategy, noise_filter=noise_filter)
                if document.report.errors or document.markdown == (stored.markdown or ""):
                    counts["unchanged"] += 1
                    continue
                result = extract(body, url=stored.url, content_type=stored.content_type,
                                 parser_key=record.config.parser_key, company=record.config.company,
                                 fetched_at=stored.fetched_at)
                jobs = [job.model_dump(mode="json", exclude_none=True) for job in page_jobs(result, document)]
                store_versions.reprepare_version(conn, stored.id, document.markdown,
                                                 Jsonb(document.report.model_dump(mode="json")),
                                                 store_versions.jobs_digest(jobs))
                counts["reprepared"] += 1
                _rewrite_file(markdown_path(markdown_dir, source_id, stored.sha256), document.markdown)
                if jobs:
                    outcome = writer.write_page(
                        conn, source_id=source_id, page_url=stored.url, jobs=jobs, version_id=stored.id,
                        parser_key=result.parser_key, parser_version=result.parser_version,
                        confidence=result.confidence, reextract=True)
                    for name in ("reextracted", "changed", "new"):
                        counts[name] += outcome[name]
    emit("versions_reprepared", configuration_id, **counts)
    return counts


def _rewrite_file(path, markdown: str) -> None:
    """The version's Markdown file, where the crawl wrote one: a copy of what the database holds, so a file that
    cannot be written is logged and the stored version keeps its new Markdown."""
    if path is None or not path.exists():
        return
    try:
        path.write_text(markdown, encoding="utf-8")
    except OSError as exc:
        logger.warning("Markdown file %s not rewritten: %s", path, exc)
