"""Several sources in one crawl process: ``scrapy crawl SPIDER -a sources=ID,ID,...``.

Starting Scrapy costs a process seconds of CPU, while a polite crawl spends most of its time waiting for its
politeness key. So one process runs up to ``CRAWL_CONCURRENT_SOURCES`` sources at once, each as its own crawler
(its own run, crawl lock, claim, stats and exit code) in one reactor. The next source to start is one whose
politeness key has the fewest crawls running here: sources queued behind one busy key never hold the places
that could keep other keys busy. ``plan_jobs`` packs the sources of one ``schedule-due`` pass into jobs that
share as few keys as possible, so processes running at once rarely wait on each other's keys.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic import TypeAdapter

from gigflow.adapters.ats import base_url as ats_base_url
from gigflow.crawler_parts import SharedWaits, share_waits
from gigflow.db import pool_from_settings
from gigflow.politeness.keys import Policies
from gigflow.runs.exits import EXIT_ALREADY_RUNNING, EXIT_BAD_INPUT, EXIT_FINALIZATION_FAILED, worst
from gigflow.runs.ledger import run_ledger
from gigflow.sources.config import Strategy
from gigflow.sources.repository import UnknownSourceError, get_source
from gigflow.db.liveness import Liveness
from gigflow.scheduling import claims

logger = logging.getLogger(__name__)

_STRATEGY = TypeAdapter(Strategy)

EXIT_FAILED = EXIT_FINALIZATION_FAILED  # 1: a crawl failed to start or was not finalized


def entry_url(strategy, canonical_url: str, ats_overrides: dict | None = None) -> str | None:
    """The first URL a strategy fetches (its politeness key's host); None for a mailbox read from disk."""
    kind = strategy.type
    if kind == "href":
        return strategy.listing_urls[0]
    if kind == "sitemap":
        return strategy.sitemap_urls[0] if strategy.sitemap_urls else canonical_url
    if kind == "click":
        return strategy.listing_url
    if kind == "feed":
        return strategy.feed_urls[0]
    if kind == "ats":
        return ats_base_url(strategy.provider, strategy.board_id, strategy.region, ats_overrides)
    if kind == "mailbox" and strategy.imap is not None:
        return f"imap://{strategy.imap.host}/"
    return None


def politeness_key(source_id: str, strategy, canonical_url: str, policies: Policies,
                   ats_overrides: dict | None = None) -> str:
    """The politeness key a source's crawl with this strategy spends first; a source that fetches nothing is a
    key of its own."""
    url = entry_url(strategy, canonical_url, ats_overrides)
    host = urlsplit(url).hostname if url else None
    return policies.for_host(host).key if host else f"source:{source_id}"


def strategy_from_json(data: dict):
    """A stored strategy (configurations.strategies) as its model."""
    return _STRATEGY.validate_python(data)


def plan_jobs(units: list[tuple[str, str]], jobs: int, per_job: int) -> list[list[str]]:
    """Pack (source id, politeness key) units into at most ``jobs`` lists of at most ``per_job`` sources.

    The keys with the most sources are placed first, each whole into the least-filled job (split only where a
    job has no room left), so jobs share as few keys as possible. Within a job the sources take turns by key,
    which is the order its process starts them in."""
    by_key: dict[str, list[str]] = {}
    for source_id, key in units:
        by_key.setdefault(key, []).append(source_id)
    bins: list[list[tuple[str, str]]] = [[] for _ in range(max(1, jobs))]
    for key, ids in sorted(by_key.items(), key=lambda item: -len(item[1])):
        while ids:
            open_bins = [b for b in bins if len(b) < per_job] or bins  # over capacity: the caller claimed too many
            target = min(open_bins, key=len)
            room = max(per_job - len(target), 1) if len(target) < per_job else len(ids)
            target.extend((source_id, key) for source_id in ids[:room])
            ids = ids[room:]
    return [_take_turns(b) for b in bins if b]


def _take_turns(units: list[tuple[str, str]]) -> list[str]:
    """Source ids ordered so that consecutive ones have different keys where they can (round robin by key)."""
    queues: dict[str, list[str]] = {}
    for source_id, key in units:
        queues.setdefault(key, []).append(source_id)
    ordered = []
    while queues:
        for key in list(queues):
            ordered.append(queues[key].pop(0))
            if not queues[key]:
                del queues[key]
    return ordered


def parse_source_ids(value: str) -> list[str]:
    """``-a sources=a,b,c``: the ids, in order, each once. Raises ValueError when none is given."""
    ids = list(dict.fromkeys(part.strip() for part in value.split(",") if part.strip()))
    if not ids:
        raise ValueError("-a sources= names no source (expected sources=ID,ID,...)")
    return ids


@dataclass
class _Queued:
    source_id: str
    key: str


class SourceBatch:
    """Runs one spider for several sources in one crawler process, at most ``concurrency`` at a time."""

    def __init__(self, process, spider_name: str, source_ids: list[str], *, concurrency: int,
                 spider_kwargs: dict | None = None):
        self.process = process
        self.spider_name = spider_name
        self.concurrency = max(1, concurrency)
        self.spider_kwargs = dict(spider_kwargs or {})
        self.codes: dict[str, int] = {}
        self.running: Counter = Counter()
        self.stopping = False  # a crawl was shut down (SIGINT, SIGTERM): start no more
        self.pool = pool_from_settings(process.settings)
        self.waits = SharedWaits()  # its crawls run in one event loop: they queue for keys and robots.txt together
        self.queue: list[_Queued] = self._queue(source_ids)

    def _queue(self, source_ids: list[str]) -> list[_Queued]:
        """Every known source with this spider's strategy, with its politeness key; the others are refused here
        with one line each (a bad id in a batch must not stop the rest)."""
        settings = self.process.settings
        strategy_type = self.process.spider_loader.load(self.spider_name).strategy_type
        policies = Policies.from_settings(settings)
        overrides = settings.getdict("ATS_BASE_URLS")
        queue = []
        for source_id in source_ids:
            try:
                record = get_source(self.pool, source_id)
            except UnknownSourceError as exc:
                logger.error("scrapy crawl %s: %s", self.spider_name, exc)
                self.codes[source_id] = EXIT_BAD_INPUT
                continue
            strategy = record.config.strategy(strategy_type)
            if strategy is None:
                logger.error("scrapy crawl %s: source %r has no %r strategy", self.spider_name, source_id,
                             strategy_type)
                self.codes[source_id] = EXIT_BAD_INPUT
                continue
            key = politeness_key(source_id, strategy, record.config.canonical_url, policies, overrides)
            queue.append(_Queued(source_id, key))
        return queue

    def start(self) -> None:
        """Start the first crawls; each one that ends starts the next (call before the process starts). While
        sources wait here, their claims are renewed, so no other pass hands them out meanwhile."""
        for _ in range(self.concurrency):
            self._start_next()
        if self.queue:
            from twisted.internet import task

            claim_seconds = self.process.settings.getfloat("SCHEDULE_CLAIM_SECONDS")
            self._renewal = task.LoopingCall(self._renew_claims, claim_seconds)
            # now=True: the waiting sources' claims name this process at once, so a kill frees them at once
            self._renewal.start(max(claim_seconds / 3, 1.0), now=True)

    def _renew_claims(self, claim_seconds: float) -> None:
        if not self.queue or self.stopping:
            self._renewal.stop()
            return
        try:
            with self.pool.connection() as conn:
                claims.hold_claims(conn, [q.source_id for q in self.queue], claim_seconds,
                                   Liveness.for_url(self.pool.conninfo).ensure())
        except Exception as exc:  # a missed renewal is logged; the crawls go on
            logger.warning("renewing the claims of %d waiting source(s) failed: %s", len(self.queue), exc)

    def _start_next(self) -> None:
        if not self.queue or self.stopping:
            return
        # The least busy key here; on a tie the earliest queued (plan_jobs already made them take turns).
        queued = min(self.queue, key=lambda q: self.running[q.key])
        self.queue.remove(queued)
        self.running[queued.key] += 1
        crawler = self.process.create_crawler(self.spider_name)
        share_waits(crawler, self.waits)
        done = self.process.crawl(crawler, source=queued.source_id, **self.spider_kwargs)

        def finished(outcome=None):
            self.running[queued.key] -= 1
            failed = isinstance(outcome, BaseException) or getattr(outcome, "check", None) is not None
            if failed:
                logger.error("crawl of source %s failed: %s", queued.source_id,
                             outcome.getTraceback() if hasattr(outcome, "getTraceback") else repr(outcome))
            code = run_ledger(crawler).exit_code or (EXIT_FAILED if failed or not crawler.spider else 0)
            self.codes[queued.source_id] = code
            if crawler.stats is not None and crawler.stats.get_value("finish_reason") == "shutdown":
                self.stopping = True
            self._start_next()
            return None if failed else outcome

        if isinstance(done, asyncio.Future):  # AsyncCrawlerProcess: a Task
            done.add_done_callback(lambda task: finished(None if task.cancelled() else task.exception()))
        else:  # CrawlerProcess: a Deferred
            done.addBoth(finished)

    def release_unstarted(self) -> None:
        """Release the claims of the sources this process never started (it was shut down), so the next
        schedule-due pass hands them out again instead of waiting for the claims to expire."""
        if not self.queue:
            return
        with self.pool.connection() as conn:
            for queued in self.queue:
                claims.release_claim(conn, queued.source_id)

    @property
    def exitcode(self) -> int:
        """0 when every source ran and was finalized, else the worst code: 1 a crawl failed or was not
        finalized (or never started: the process was shut down), 2 a source unknown or without this strategy, 3 a
        source already being crawled."""
        return worst(set(self.codes.values()) | ({EXIT_FAILED} if self.queue else set()))  # some never started

    def summary(self) -> str:
        counts = Counter(self.codes.values())
        text = (f"{len(self.codes) + len(self.queue)} source(s): {counts.get(0, 0)} ran, "
                f"{counts.get(EXIT_ALREADY_RUNNING, 0)} already running, {counts.get(EXIT_BAD_INPUT, 0)} refused, "
                f"{counts.get(EXIT_FAILED, 0)} failed")
        return text + (f", {len(self.queue)} not started (shut down)" if self.queue else "")
