"""Health and drift per run, the lifecycle transition it calls for, and when to crawl next.

Signals only: responses and items feed the run's HealthCollector; ``run_outcome_pending`` (inside the
finalizing transaction, before jobs are marked gone) records health and drift, and a run with drift becomes
``incomplete:drift`` so it marks nothing gone; ``source_finalized`` (after commit) applies the transition and
sets the next crawl: a failed or incomplete run is retried sooner, with backoff; a trial source less often."""

from __future__ import annotations

import hashlib
import logging

from psycopg.types.json import Jsonb
from scrapy import signals
from scrapy.exceptions import NotConfigured

from gigflow.db import get_pool
from gigflow.health import LISTING_PAGE
from gigflow.health.drift import DriftSettings, detect_drift
from gigflow.health.lifecycle import LifecycleSettings, after_run, recent_runs
from gigflow.health.metrics import HealthCollector
from gigflow.health.middleware import CONTENT_TYPE_STAT, STATUS_STAT
from gigflow.middlewares.preparation import JOB
from gigflow.signals import run_outcome_pending, source_finalized
from gigflow.sources.config import SourceStatus
from gigflow.sql import load_sql

logger = logging.getLogger(__name__)
_SQL = "gigflow.health"
RUN_ID_STAT = "gigflow/run_id"
NOT_JUDGED = ("incomplete:anti_bot", "incomplete:abandoned", "incomplete:already_running", "incomplete:shutdown")


def retry_delay(failed_in_a_row: int, base: float, cap: float) -> float:
    """Seconds until a source whose last ``failed_in_a_row`` runs failed is tried again: base, doubling, capped."""
    return min(cap, base * 2 ** max(0, failed_in_a_row - 1))


class HealthExtension:
    def __init__(self, crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.drift_settings = DriftSettings.from_settings(settings)
        self.lifecycle = LifecycleSettings.from_settings(settings)
        self.history_runs = settings.getint("HEALTH_DRIFT_HISTORY_RUNS")
        self.min_history = settings.getint("HEALTH_DRIFT_MIN_RUNS")
        self.snapshots_kept = settings.getint("HEALTH_LISTING_SNAPSHOTS_KEPT")
        self.retry_base = settings.getfloat("SOURCE_RETRY_BASE")
        self.retry_max = settings.getfloat("SOURCE_RETRY_MAX")
        self.trial_factor = settings.getfloat("SOURCE_TRIAL_INTERVAL_FACTOR")
        self.base_interval = settings.getfloat("CRAWL_BASE_INTERVAL")
        self.collector = HealthCollector()
        self.drifted = False

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("HEALTH_ENABLED"):
            raise NotConfigured
        extension = cls(crawler)
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(extension.run_outcome_pending, signal=run_outcome_pending)
        crawler.signals.connect(extension.source_finalized, signal=source_finalized)
        return extension

    def response_received(self, response, request, spider):
        if request.meta.get(LISTING_PAGE) and response.status == 200 and response.body:
            content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1") or None
            self._snapshot(spider, response, content_type)

    def _snapshot(self, spider, response, content_type: str | None) -> None:
        run_id = self.crawler.stats.get_value(RUN_ID_STAT)
        source_id = getattr(spider, "source_id", None)
        if run_id is None or source_id is None:
            return
        try:
            with get_pool().connection() as conn, conn.transaction():
                conn.execute(load_sql(_SQL, "insert_snapshot.sql"), {
                    "source_id": source_id, "run_id": run_id, "url": response.url, "content_type": content_type,
                    "sha256": hashlib.sha256(response.body).hexdigest(), "body": response.body})
                conn.execute(load_sql(_SQL, "prune_snapshots.sql"), {"source_id": source_id,
                                                                     "keep": self.snapshots_kept})
        except Exception as exc:  # a snapshot is for later repairs; the run goes on without it
            logger.warning("listing snapshot of %s not stored: %s", response.url, exc)

    def request_scheduled(self, request, spider):
        if request.meta.get(JOB) and not request.meta.get(LISTING_PAGE):
            self.collector.add_job_link(request.url)

    def item_scraped(self, item, response, spider):
        self.collector.add_item(item)

    def run_outcome_pending(self, spider, conn, run_id, outcome):
        source_id = spider.source_id
        stats = dict(self.crawler.stats.get_stats())  # a copy: finalizing runs in a thread beside the reactor
        health = self.collector.summary(
            {k.removeprefix(STATUS_STAT): v for k, v in stats.items() if k.startswith(STATUS_STAT)},
            {k.removeprefix(CONTENT_TYPE_STAT): v for k, v in stats.items() if k.startswith(CONTENT_TYPE_STAT)})
        drift = []
        with conn.transaction():  # a savepoint: a failure here never aborts the run's finalization
            health["churn"] = {"same_title_pairs": [
                [r["old_url"], r["new_url"]] for r in conn.execute(
                    load_sql(_SQL, "same_title_new_keys.sql"), {"source_id": source_id, "run_id": run_id})]}
            history = [r["health"] for r in conn.execute(load_sql(_SQL, "recent_complete_health.sql"), {
                "source_id": source_id, "spider": spider.name, "run_id": run_id, "limit": self.history_runs})]
            # A stopped or abandoned run (bot challenge, killed) says nothing about the site's shape either.
            # Spiders whose inputs are not listings (mailbox alerts) vary by nature: no drift is judged for them.
            judged = getattr(spider, "marks_gone", True) and outcome not in NOT_JUDGED
            if judged and len(history) >= self.min_history:
                drift = detect_drift(health, history, self.drift_settings, complete=outcome == "finished")
            if drift and outcome == "finished":
                spider.mark_incomplete("drift: " + "; ".join(d.reason for d in drift), "drift")
            elif drift:
                logger.warning("run %s of %s: drift: %s", run_id, source_id, "; ".join(d.reason for d in drift))
            self.drifted = bool(drift)
            conn.execute(load_sql(_SQL, "insert_run_health.sql"), {
                "run_id": run_id, "source_id": source_id, "spider": spider.name,
                "complete": outcome == "finished" and not drift, "health": Jsonb(health),
                "drift": Jsonb([d.as_json() for d in drift])})
        stats = self.crawler.stats
        stats.set_value("gigflow/health/jobs", health["jobs"])
        stats.set_value("gigflow/health/pages_without_job", health["pages_without_job"])
        if health["mean_confidence"] is not None:
            stats.set_value("gigflow/health/mean_confidence", health["mean_confidence"])
        for page in health["without_job"][:5]:
            logger.info("page without a job: %s (%s)", page["url"], page["reason"])

    def source_finalized(self, spider, source_id, configuration_id, outcome, review_requested_by_preparation):
        pool = get_pool()
        status = after_run(pool, source_id, outcome, self.lifecycle, drifted=self.drifted)
        if status:
            logger.warning("source %s is now %s (see `scrapy sources show %s`)", source_id, status, source_id)
        seconds = None
        if outcome != "finished":
            failed = 0
            for run in recent_runs(pool, source_id, 20):
                if run["outcome"] == "finished":
                    break
                failed += 1
            seconds = retry_delay(failed, self.retry_base, self.retry_max)
        elif (status or getattr(spider.record.config, "status", None)) == SourceStatus.trial:
            seconds = (self.crawler.stats.get_value("gigflow/next_crawl_in_s") or self.base_interval) * self.trial_factor
        if seconds is not None:
            with pool.connection() as conn:
                conn.execute(load_sql(_SQL, "set_next_crawl.sql"), {"source_id": source_id, "seconds": seconds})
            self.crawler.stats.set_value("gigflow/next_crawl_in_s", seconds)
