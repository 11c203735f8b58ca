"""Once a source's crawl is finalized: per-job Markdown for its payload jobs, and its new jobs linked to canonical
jobs. A failure is logged and never fails the crawl (the maintenance worker catches up on its next tick)."""

from __future__ import annotations

import logging

from scrapy.exceptions import NotConfigured

from gigflow.db import pool_from_crawler
from gigflow.documents.preparer import DocumentPreparer
from gigflow.maintenance.job_markdown import document_jobs
from gigflow.maintenance.resolve import ResolveSettings, resolve
from gigflow.maintenance.shutdown import ShutdownWatch
from gigflow.signals import source_finalized

logger = logging.getLogger(__name__)


class ResolveAfterCrawl:
    def __init__(self, settings: ResolveSettings, client: DocumentPreparer, pool, max_jobs_per_payload: int = 0,
                 crawler=None):
        self.settings, self.client, self.pool = settings, client, pool
        self.max_jobs_per_payload = max_jobs_per_payload
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("MAINTENANCE_RESOLVE_AFTER_CRAWL"):
            raise NotConfigured
        extension = cls(ResolveSettings.from_settings(crawler.settings), DocumentPreparer.from_settings(crawler.settings),
                        pool_from_crawler(crawler), crawler.settings.getint("MAINTENANCE_MAX_JOBS_PER_PAYLOAD"), crawler)
        crawler.signals.connect(extension.source_finalized, signal=source_finalized)
        return extension

    def source_finalized(self, source_id):
        # A crawl shut down (SIGTERM, SIGINT) leaves this work to the worker; one shut down during it stops it
        # between two jobs.
        stats = getattr(self.crawler, "stats", None)
        already = stats is not None and stats.get_value("finish_reason") == "shutdown"
        try:
            with ShutdownWatch(already) as shutdown:
                counts = {}
                if not shutdown.requested:
                    counts.update(document_jobs(self.pool, self.client, source_id,
                                                max_jobs_per_payload=self.max_jobs_per_payload,
                                                should_stop=shutdown))
                if not shutdown.requested:
                    counts.update(resolve(self.pool, self.settings, source_id, should_stop=shutdown))
                if shutdown.requested:
                    logger.warning("after-crawl work of source %s stopped by shutdown (%s); the maintenance worker "
                                   "catches up", source_id, counts)
                    return
        except Exception as exc:
            logger.warning("canonical jobs of source %s not resolved: %s: %s", source_id,
                           exc.__class__.__name__, exc)
            return
        logger.info("canonical jobs of source %s: %s", source_id, counts)
