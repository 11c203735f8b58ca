"""Store source versions (content-addressed), upsert jobs by canonical key, record the crawl run."""

from __future__ import annotations

import logging
from psycopg.types.json import Jsonb
from scrapy import signals
from w3lib.url import canonicalize_url

from gigflow.db import get_pool
from gigflow.items import UnchangedPageItem
from gigflow.paths import markdown_path
from gigflow.signals import source_finalized
from gigflow.sql import load_sql

logger = logging.getLogger(__name__)
_SQL = "gigflow.pipelines"


def canonical_key(job: dict, parser_key: str, source_id: str) -> str:
    """External ids are the most stable identity; otherwise the canonical URL without fragment."""
    if job.get("external_id"):
        return f"{parser_key}:{source_id}:{job['external_id']}"
    return canonicalize_url(job["url"], keep_fragments=False)


class StoragePipeline:
    def __init__(self, crawler, markdown_dir: str):
        self.crawler = crawler
        self.stats = crawler.stats
        self.markdown_dir = markdown_dir
        self.pool = None
        self.run_id: int | None = None

    @classmethod
    def from_crawler(cls, crawler):
        pipeline = cls(crawler, crawler.settings.get("MARKDOWN_DIR", ""))
        # spider_closed, not close_spider: only the signal carries the finish reason.
        crawler.signals.connect(pipeline.spider_closed, signal=signals.spider_closed)
        return pipeline

    def open_spider(self, spider=None):
        spider = spider or self.crawler.spider
        self.pool = get_pool()
        with self.pool.connection() as conn:
            self.run_id = conn.execute(load_sql(_SQL, "start_run.sql"),
                                       {"source_id": spider.source_id, "spider": spider.name}).fetchone()["id"]
        for key in ("versions_new", "versions_unchanged", "jobs_new", "jobs_updated", "jobs_gone", "warnings"):
            self.stats.set_value(f"gigflow/{key}", 0)

    def process_item(self, item, spider=None):
        if isinstance(item, UnchangedPageItem):
            return self._touch_unchanged(item)
        if item.get("http_status") == 304:
            return self._confirm_not_modified(item)
        body = item.get("body")
        with self.pool.connection() as conn, conn.transaction():
            version_id = self._store_version(conn, item, body)
            for job in item.get("jobs") or []:
                inserted = conn.execute(load_sql(_SQL, "upsert_job.sql"), {
                    "canonical_key": canonical_key(job, item["parser_key"], item["source_id"]),
                    "source_id": item["source_id"],
                    "source_version_id": version_id,
                    "title": job["title"],
                    "url": job.get("url"),
                    "external_id": job.get("external_id"),
                    "fields": Jsonb({k: v for k, v in job.items() if k not in ("evidence", "raw")}),
                    "evidence": Jsonb(job.get("evidence", {})),
                    "confidence": item["confidence"],
                    "parser_key": item["parser_key"],
                    "parser_version": item["parser_version"],
                    "run_id": self.run_id,
                }).fetchone()["inserted"]
                self.stats.inc_value("gigflow/jobs_new" if inserted else "gigflow/jobs_updated")
        self.stats.inc_value("gigflow/warnings", len(item.get("warnings") or []))
        if (item.get("preparation") or {}).get("review_requested"):
            self.stats.inc_value("gigflow/noise_review_requested")
        del item["body"]  # stored; exporters get the sha256 instead of raw bytes
        return item

    def _touch_unchanged(self, item):
        with self.pool.connection() as conn:
            touched = conn.execute(load_sql(_SQL, "touch_unchanged_jobs.sql"), {
                "source_id": item["source_id"], "url": item["url"], "run_id": self.run_id}).rowcount
        self.stats.inc_value("gigflow/pages_skipped_unchanged")
        self.stats.inc_value("gigflow/jobs_unchanged", touched)
        return item

    def _confirm_not_modified(self, item):
        """A 304 stores nothing: the jobs of the previous version count as seen by this run, and the item
        carries that version's digest and Markdown like any unchanged page."""
        params = {"source_version_id": item["source_version_id"], "run_id": self.run_id}
        with self.pool.connection() as conn:
            seen = conn.execute(load_sql(_SQL, "confirm_version_jobs.sql"), params).rowcount
            previous = conn.execute(load_sql(_SQL, "get_version_summary.sql"), params).fetchone()
        if previous:
            item.update({k: v for k, v in previous.items() if v is not None})
        self.stats.inc_value("gigflow/versions_unchanged")
        self.stats.inc_value("gigflow/jobs_updated", seen)
        return item

    def _store_version(self, conn, item, body: bytes) -> int:
        params = {key: item.get(key) for key in ("source_id", "url", "http_status", "content_type", "etag",
                                                 "last_modified", "sha256", "size", "markdown")}
        params["body"] = body
        params["preparation"] = Jsonb(item.get("preparation")) if item.get("preparation") is not None else None
        row = conn.execute(load_sql(_SQL, "insert_version.sql"), params).fetchone()
        if row and row["inserted"]:
            item["version_status"] = "new"
            self.stats.inc_value("gigflow/versions_new")
            version_id = row["id"]
        else:  # same bytes as a stored version (its Markdown refreshed when preparation changed)
            item["version_status"] = "unchanged"
            self.stats.inc_value("gigflow/versions_unchanged")
            if row:
                self.stats.inc_value("gigflow/versions_reprepared")
            version_id = row["id"] if row else conn.execute(load_sql(_SQL, "find_version.sql"), params).fetchone()["id"]
        item["source_version_id"] = version_id
        path = markdown_path(self.markdown_dir, item["source_id"], item["sha256"])
        if path and item.get("markdown") is not None:
            if row or not path.exists():  # new bytes or re-prepared Markdown; otherwise the file is current
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(item["markdown"], encoding="utf-8")
            item["markdown_path"] = str(path)
        return version_id

    def spider_closed(self, spider, reason):
        if self.run_id is None:
            return
        # A run that failed a fetch, hit a cap or could not reach a board saw only part of the listing.
        complete = (reason == "finished" and not self.stats.get_value("gigflow/fetch_failures")
                    and not self.stats.get_value("gigflow/incomplete"))
        with self.pool.connection() as conn, conn.transaction():
            # Spiders whose inputs are not listings (mailbox alerts) set marks_gone = False.
            if complete and getattr(spider, "marks_gone", True):
                gone = conn.execute(load_sql(_SQL, "mark_gone.sql"), {
                    "source_id": spider.source_id, "run_id": self.run_id, "spider": spider.name}).rowcount
                self.stats.set_value("gigflow/jobs_gone", gone)
            stats = {k: v for k, v in self.stats.get_stats().items() if isinstance(v, (int, float, str))}
            outcome = reason if complete else f"incomplete:{reason}"
            conn.execute(load_sql(_SQL, "finish_run.sql"), {"run_id": self.run_id, "stats": Jsonb(stats),
                                                            "outcome": outcome})
        self.crawler.signals.send_catch_log(
            source_finalized, spider=spider, source_id=spider.source_id,
            configuration_id=spider.record.configuration_id, outcome=outcome,
            review_requested_by_preparation=bool(self.stats.get_value("gigflow/noise_review_requested")))
