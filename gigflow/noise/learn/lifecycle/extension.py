"""Finalization requests a noise review after commit; an enqueue failure is logged and never fails the crawl."""

from __future__ import annotations

import logging

from scrapy.exceptions import NotConfigured

from gigflow.db import pool_from_crawler
from gigflow.noise.events import emit
from gigflow.noise.learn.lifecycle.queue import request_review
from gigflow.noise.learn.lifecycle.review import ReviewKind
from gigflow.signals import source_finalized

logger = logging.getLogger(__name__)


class NoiseReviewTrigger:
    def __init__(self, pool):
        self.pool = pool

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("NOISE_REVIEW_ON_FINALIZE"):
            raise NotConfigured
        trigger = cls(pool_from_crawler(crawler))
        crawler.signals.connect(trigger.source_finalized, signal=source_finalized)
        return trigger

    def source_finalized(self, source_id, configuration_id, outcome, review_requested_by_preparation):
        # Also for unchanged sources (the queue skips cheaply when the samples equal the saved ones), but not for
        # an incomplete run: its source did not finish validly.
        if outcome.startswith("incomplete"):
            return
        kind = ReviewKind.changed_content if review_requested_by_preparation else ReviewKind.source
        if review_requested_by_preparation:
            emit("review_requested_by_preparation", configuration_id, source_id=source_id)
        try:
            request_review(self.pool, configuration_id, kind, reason=f"source {source_id} finalized ({outcome})")
        except Exception as exc:
            emit("enqueue_failed", configuration_id, source_id=source_id, error=f"{exc.__class__.__name__}: {exc}")
            logger.warning("noise review not requested for configuration %s: %s", configuration_id, exc)
