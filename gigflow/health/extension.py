"""Health and drift per run, and the lifecycle transition it calls for.

Responses and items feed the run's HealthCollector. In the run's finalizing transaction (gigflow.runs.finalize)
health is an *assessor*: it judges the provisional outcome and gives its verdict (drift: a run that would be
complete becomes ``incomplete:drift`` and marks nothing gone), and a *recorder*: it writes the run's health row
beside the decided outcome. After commit, ``source_finalized`` applies the lifecycle transition (a side effect: when
the source is crawled next was decided in the transaction)."""

from __future__ import annotations

import hashlib
import logging

from scrapy import signals
from scrapy.exceptions import NotConfigured

from gigflow import keys
from gigflow.db import pool_from_crawler
from gigflow.health import queries
from gigflow.health.drift import DriftSettings, detect_drift
from gigflow.health.lifecycle import LifecycleSettings, after_run
from gigflow.health.metrics import HealthCollector
from gigflow.runs.decide import ABANDONED, ALREADY_RUNNING, ANTI_BOT, FINISHED, SHUTDOWN
from gigflow.runs.ledger import Verdict, run_ledger
from gigflow.signals import source_finalized
from gigflow.store import jobs as store_jobs

logger = logging.getLogger(__name__)
NOT_JUDGED = (ANTI_BOT, ABANDONED, ALREADY_RUNNING, SHUTDOWN)


class HealthExtension:
    def __init__(self, crawler, pool):
        settings = crawler.settings
        self.crawler = crawler
        self.pool = pool
        self.drift_settings = DriftSettings.from_settings(settings)
        self.lifecycle = LifecycleSettings.from_settings(settings)
        self.history_runs = settings.getint("HEALTH_DRIFT_HISTORY_RUNS")
        self.min_history = settings.getint("HEALTH_DRIFT_MIN_RUNS")
        self.snapshots_kept = settings.getint("HEALTH_LISTING_SNAPSHOTS_KEPT")
        self.collector = HealthCollector()
        self.health: dict | None = None  # the assessed run's figures and drift, recorded after the decision
        self.drift: list = []

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("HEALTH_ENABLED"):
            raise NotConfigured
        extension = cls(crawler, pool_from_crawler(crawler))
        crawler.signals.connect(extension.response_received, signal=signals.response_received)
        crawler.signals.connect(extension.request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(extension.item_scraped, signal=signals.item_scraped)
        ledger = run_ledger(crawler)
        ledger.add_assessor(extension.assess)
        ledger.add_recorder(extension.record)
        crawler.signals.connect(extension.source_finalized, signal=source_finalized)
        return extension

    def response_received(self, response, request, spider):
        if request.meta.get(keys.LISTING_PAGE) and response.status == 200 and response.body:
            content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1") or None
            self._snapshot(spider, response, content_type)

    def _snapshot(self, spider, response, content_type: str | None) -> None:
        run_id = run_ledger(self.crawler).run_id
        source_id = getattr(spider, "source_id", None)
        if run_id is None or source_id is None:
            return
        try:
            with self.pool.connection() as conn, conn.transaction():
                queries.insert_snapshot(conn, source_id, run_id, response.url,
                                        hashlib.sha256(response.body).hexdigest(), content_type, response.body)
                queries.prune_snapshots(conn, source_id, self.snapshots_kept)
        except Exception as exc:  # a snapshot is for later repairs; the run goes on without it
            logger.warning("listing snapshot of %s not stored: %s", response.url, exc)

    def request_scheduled(self, request, spider):
        if request.meta.get(keys.JOB) and not request.meta.get(keys.LISTING_PAGE):
            self.collector.add_job_link(request.url)

    def item_scraped(self, item, response, spider):
        self.collector.add_item(item)

    def assess(self, conn, ledger, outcome: str) -> Verdict | None:
        """The run's health and drift, judged on its provisional ``outcome``; a verdict when it drifted."""
        self.health, self.drift = None, []  # a retried finalization assesses afresh
        spider = self.crawler.spider
        source_id, run_id = spider.source_id, ledger.run_id
        stats = dict(self.crawler.stats.get_stats())  # a copy: finalizing runs in a thread beside the reactor
        health = self.collector.summary(
            {k.removeprefix(keys.STATUS): v for k, v in stats.items() if k.startswith(keys.STATUS)},
            {k.removeprefix(keys.CONTENT_TYPE): v for k, v in stats.items() if k.startswith(keys.CONTENT_TYPE)})
        health["churn"] = {"same_title_pairs": [
            list(pair) for pair in store_jobs.same_title_pairs(conn, source_id, run_id)]}
        history = queries.recent_complete_health(conn, source_id, spider.name, run_id, self.history_runs)
        # A stopped or abandoned run (bot challenge, killed) says nothing about the site's shape either.
        # Spiders whose inputs are not listings (mailbox alerts) vary by nature: no drift is judged for them.
        drift = []
        if getattr(spider, "marks_gone", True) and outcome not in NOT_JUDGED and len(history) >= self.min_history:
            drift = detect_drift(health, history, self.drift_settings, complete=outcome == FINISHED)
        self.health, self.drift = health, drift
        if not drift:
            return None
        reasons = "; ".join(d.reason for d in drift)
        if outcome != FINISHED:  # already incomplete: the drift is told, the outcome stays
            logger.warning("run %s of %s: drift: %s", run_id, source_id, reasons)
        return Verdict("drift", "drift: " + reasons)

    def record(self, conn, ledger, decision) -> None:
        """The run's health row, beside its decided outcome."""
        if self.health is None:
            return
        spider, health = self.crawler.spider, self.health
        queries.insert_run_health(conn, ledger.run_id, spider.source_id, spider.name, decision.complete, health,
                                  [d.as_json() for d in self.drift])
        stats = self.crawler.stats
        stats.set_value(keys.HEALTH_JOBS, health["jobs"])
        stats.set_value(keys.HEALTH_PAGES_WITHOUT_JOB, health["pages_without_job"])
        if health["mean_confidence"] is not None:
            stats.set_value(keys.HEALTH_MEAN_CONFIDENCE, health["mean_confidence"])
        for page in health["without_job"][:5]:
            logger.info("page without a job: %s (%s)", page["url"], page["reason"])

    def source_finalized(self, spider, source_id, outcome):
        """After commit: the lifecycle transition the run calls for (its next crawl is already set)."""
        status = after_run(self.pool, source_id, outcome, self.lifecycle, drifted=bool(self.drift))
        if status:
            logger.warning("source %s is now %s (see `scrapy sources show %s`)", source_id, status, source_id)
