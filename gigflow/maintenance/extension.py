"""Once a source's crawl is finalized: per-job Markdown for its payload jobs, and its new jobs linked to canonical
jobs. A failure is logged and never fails the crawl (the maintenance worker catches up on its next tick)."""

from __future__ import annotations

import logging

from scrapy.exceptions import NotConfigured

from gigflow.db import get_pool
from gigflow.documents.preparer import DocumentPreparer
from gigflow.maintenance.job_markdown import document_jobs
from gigflow.maintenance.resolve import ResolveSettings, resolve
from gigflow.signals import source_finalized

logger = logging.getLogger(__name__)


class ResolveAfterCrawl:
    def __init__(self, settings: ResolveSettings, client: DocumentPreparer):
        self.settings, self.client = settings, client

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("MAINTENANCE_RESOLVE_AFTER_CRAWL"):
            raise NotConfigured
        extension = cls(ResolveSettings.from_settings(crawler.settings), DocumentPreparer.from_settings(crawler.settings))
        crawler.signals.connect(extension.source_finalized, signal=source_finalized)
        return extension

    def source_finalized(self, spider, source_id, configuration_id, outcome, review_requested_by_preparation):
        try:
            counts = {**document_jobs(get_pool(), self.client, source_id),
                      **resolve(get_pool(), self.settings, source_id)}
        except Exception as exc:
            logger.warning("canonical jobs of source %s not resolved: %s: %s", source_id,
                           exc.__class__.__name__, exc)
            return
        logger.info("canonical jobs of source %s: %s", source_id, counts)
