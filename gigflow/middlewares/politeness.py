"""The shared limiter as a downloader middleware: every request first takes a lease on its politeness key.

It sits last before the download (highest order number), so its process_response sees each raw response
first: it releases the lease there and turns 429/5xx, Retry-After and exceptions into a later next-allowed
time for the key. Scrapy's RetryMiddleware then re-queues the request, which waits here for that time.

The waiting, the lease bookkeeping and the backoff live in the middleware's ``PolitenessGate``, one per crawler,
which the click spider (the browser's own requests) and the health middleware (a bot challenge) find through the
crawler: ``politeness_gate(crawler)``."""

from __future__ import annotations

import asyncio
import logging

from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached

from gigflow.crawler_parts import shared_waits
from gigflow.db import pool_from_crawler
from gigflow.db.outage import DATABASE_ERRORS, DatabaseLost, DatabaseOutage
from gigflow.politeness.keys import Policies
from gigflow.politeness.limiter import Backoff, Lease, Limiter
from gigflow.middlewares.safe_fetch import POLICY_BLOCKED
from gigflow.politeness.retry_after import retry_after_seconds

logger = logging.getLogger(__name__)

LEASE = "gigflow_lease"


class CrawlClosing(IgnoreRequest):
    """A request dropped at the gate because its crawl is closing (CLOSESPIDER_*, a stop): never the site's
    failure, and never fetched after the close."""


class PolitenessGate:
    """Takes a lease on a URL's politeness key (waiting for it) and settles it with the outcome: a success resets
    the key's error count; an error status, Retry-After or a network error pushes the key's next start."""

    def __init__(self, crawler, policies: Policies, limiter: Limiter):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.policies = policies
        self.limiter = limiter
        self.max_retry_after = settings.getfloat("POLITENESS_MAX_RETRY_AFTER")
        self.max_sleep = settings.getfloat("POLITENESS_MAX_SLEEP")
        self.error_statuses = {int(code) for code in settings.getlist("POLITENESS_BACKOFF_HTTP_CODES")}
        self._held: dict[int, Lease] = {}
        self._unreleased: list[Lease] = []  # released while the database was away: released when it is back
        self._closed = False
        self._stopped_keys: dict[str, str] = {}  # key -> why no further request of this run goes to it
        self.outage = DatabaseOutage.for_crawler(crawler)
        # One waiter per key across the crawls of this event loop (a batch runs several): the others queue on its
        # lock instead of polling the database.
        self.key_locks = shared_waits(crawler).key_locks

    @classmethod
    def from_crawler(cls, crawler) -> "PolitenessGate":
        """A gate for the crawler; its middleware builds the crawler's one (``politeness_gate`` finds it)."""
        settings = crawler.settings
        backoff = Backoff(base=settings.getfloat("POLITENESS_BACKOFF_BASE"),
                          cap=settings.getfloat("POLITENESS_BACKOFF_MAX"),
                          jitter=settings.getfloat("POLITENESS_BACKOFF_JITTER"))
        limiter = Limiter(pool_from_crawler(crawler), lease_seconds=settings.getfloat("POLITENESS_LEASE_SECONDS"),
                          poll_seconds=settings.getfloat("POLITENESS_POLL_SECONDS"), backoff=backoff)
        gate = cls(crawler, Policies.from_settings(settings), limiter)
        crawler.signals.connect(gate.release_all, signal=signals.spider_closed)
        return gate

    def key_for(self, host: str) -> str:
        return self.policies.for_host(host).key

    def stop_key(self, key: str, why: str) -> None:
        """No further request of this run goes to ``key`` (a bot challenge): those waiting are dropped."""
        self._stopped_keys.setdefault(key, why)

    def stop_and_back_off(self, host: str, why: str) -> float:
        """No further request of this run goes to ``host``'s key, and the key's next start is pushed back as for an
        error; the delay in seconds (the limiter's database errors reach the caller)."""
        key = self.key_for(host)
        self.stop_key(key, why)
        return self.limiter.record_failure(key)

    def stopped(self, host: str) -> str | None:
        return self._stopped_keys.get(self.key_for(host))

    async def acquire(self, host: str, url: str) -> Lease:
        policy = self.policies.for_host(host)
        pause = 0.5
        async with self.key_locks[policy.key]:
            while True:
                if self.outage.closing:  # first: a crawl closing for its database says so
                    raise DatabaseLost(f"{url} not requested: the database cannot be reached")
                if self.closing:  # the crawl ends or ended while this request waited: it must not take the key
                    raise CrawlClosing(f"crawl closed while {url} waited for its politeness key")
                if policy.key in self._stopped_keys:
                    raise IgnoreRequest(f"{url} not requested: {self._stopped_keys[policy.key]}")
                try:  # in a thread: a database that does not answer never blocks the reactor
                    self._release_pending()
                    outcome = await asyncio.to_thread(self.limiter.try_acquire, policy, url)
                except DATABASE_ERRORS as exc:
                    self.outage.failed(exc)  # retried with back-off until the outage limit closes the crawl
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 5.0)
                    continue
                self.outage.succeeded()
                if isinstance(outcome, Lease):
                    break
                self.stats.inc_value("gigflow/politeness/waits")
                await asyncio.sleep(min(max(outcome, 0.01), self.max_sleep))
        self._held[outcome.id] = outcome
        if self.closing or policy.key in self._stopped_keys:  # closed or stopped while the lease was on its way
            self.release(outcome)
            if self.closing:
                raise CrawlClosing(f"crawl closed while {url} waited for its politeness key")
            raise IgnoreRequest(f"{url} not requested: the crawl stopped requesting {policy.key}")
        return outcome

    @property
    def closing(self) -> bool:
        """The crawl is closing (CLOSESPIDER_*, a stop, a shutdown) or closed. Scrapy's close waits for every
        request in progress, and a request waiting here is one: without this, each waiting request would still
        take its key in turn, 30 s apart, reading pages past the close (sources try --pages 5 read 21)."""
        if self._closed:
            return True
        slot = getattr(self.crawler.engine, "_slot", None)  # Scrapy's engine marks its slot closing first
        return slot is not None and getattr(slot, "closing", None) is not None

    def release(self, lease: Lease | None) -> bool:
        """Release a lease still held; False when it was released already (or is None). While the database is
        away the lease is kept to release later (its liveness key keeps it from blocking anyone for long)."""
        if lease is not None and self._held.pop(lease.id, None) is not None:
            if self.outage.since is not None:
                self._unreleased.append(lease)
                return True
            try:
                self.limiter.release(lease)
            except DATABASE_ERRORS as exc:
                self.outage.failed(exc)
                self._unreleased.append(lease)
            return True
        return False

    def _release_pending(self) -> None:
        while self._unreleased:
            self.limiter.release(self._unreleased[0])
            self._unreleased.pop(0)

    def settle_response(self, lease: Lease | None, status: int, retry_after_header, url: str) -> None:
        if lease is None or lease.id not in self._held:
            return
        if status in self.error_statuses:
            # The key's next start is pushed before the lease goes: an acquire running in another thread must
            # never find the key free between the two.
            retry_after = retry_after_seconds(retry_after_header)
            if retry_after is not None:
                retry_after = min(retry_after, self.max_retry_after)
                self.stats.inc_value("gigflow/politeness/retry_after")
            delay = self._record_failure(lease.key, retry_after)
            self.release(lease)
            if delay is None:
                return
            self.stats.inc_value("gigflow/politeness/backoffs")
            logger.info("HTTP %s from %s: key %s waits %.2fs%s", status, url, lease.key, delay,
                        " (Retry-After)" if retry_after is not None else "")
            return
        self.release(lease)
        if self.outage.since is None:
            try:
                self.limiter.record_success(lease.key)
            except DATABASE_ERRORS as exc:
                self.outage.failed(exc)

    def settle_error(self, lease: Lease | None, error: str, url: str) -> None:
        if lease is None or lease.id not in self._held:
            return
        delay = self._record_failure(lease.key)
        self.release(lease)
        if delay is None:
            return
        self.stats.inc_value("gigflow/politeness/backoffs")
        logger.info("%s on %s: key %s waits %.2fs", error, url, lease.key, delay)

    def _record_failure(self, key: str, retry_after: float | None = None) -> float | None:
        if self.outage.since is not None:
            return None
        try:
            return self.limiter.record_failure(key, retry_after)
        except DATABASE_ERRORS as exc:
            self.outage.failed(exc)
            return None

    def release_all(self, *args, **kwargs) -> None:
        self._closed = True
        for lease in list(self._held.values()):
            self.release(lease)
        try:
            self._release_pending()
        except DATABASE_ERRORS:
            pass  # the leases' liveness key goes with this process


class PolitenessMiddleware:
    def __init__(self, gate: PolitenessGate):
        self.gate = gate

    @classmethod
    def from_crawler(cls, crawler):
        return cls(PolitenessGate.from_crawler(crawler))

    async def process_request(self, request, spider=None):
        host = urlparse_cached(request).hostname
        if not host:
            return None
        self.gate.release(request.meta.pop(LEASE, None))  # a re-queued copy never carries an old lease
        # The in-process slot follows the same key, so one process never opens a second connection to it.
        request.meta["download_slot"] = self.gate.key_for(host)
        request.meta[LEASE] = await self.gate.acquire(host, request.url)
        return None

    def process_response(self, request, response, spider=None):
        self.gate.settle_response(request.meta.pop(LEASE, None), response.status,
                                  response.headers.get(b"Retry-After"), request.url)
        return response

    def process_exception(self, request, exception, spider=None):
        lease = request.meta.pop(LEASE, None)
        # A host the connecting resolver refused is a policy block, not a network error: no backoff.
        if isinstance(exception, IgnoreRequest) or request.meta.get(POLICY_BLOCKED):
            self.gate.release(lease)
        else:
            self.gate.settle_error(lease, type(exception).__name__, request.url)
        return None


def politeness_gate(crawler) -> PolitenessGate | None:
    """The crawl's gate, its PolitenessMiddleware's (found once the crawl's engine exists); None when that
    middleware is off."""
    middleware = crawler.get_downloader_middleware(PolitenessMiddleware)
    return middleware.gate if middleware is not None else None
