"""The shared limiter as a downloader middleware: every request first takes a lease on its politeness key.

It sits last before the download (highest order number), so its process_response sees each raw response
first: it releases the lease there and turns 429/5xx, Retry-After and exceptions into a later next-allowed
time for the key. Scrapy's RetryMiddleware then re-queues the request, which waits here for that time."""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict

from scrapy import signals
from scrapy.exceptions import IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached

from gigflow.db import get_pool
from gigflow.politeness.keys import Policies
from gigflow.politeness.limiter import Backoff, Lease, Limiter
from gigflow.politeness.retry_after import retry_after_seconds

logger = logging.getLogger(__name__)

LEASE = "gigflow_lease"


class PolitenessMiddleware:
    def __init__(self, crawler, policies: Policies, limiter: Limiter):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.policies = policies
        self.limiter = limiter
        self.max_retry_after = settings.getfloat("POLITENESS_MAX_RETRY_AFTER")
        self.max_sleep = settings.getfloat("POLITENESS_MAX_SLEEP")
        self.error_statuses = {int(code) for code in settings.getlist("POLITENESS_BACKOFF_HTTP_CODES")}
        # One waiter per key per process: the others queue here instead of polling the database.
        self._key_locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._held: dict[int, Lease] = {}

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        backoff = Backoff(base=settings.getfloat("POLITENESS_BACKOFF_BASE"), cap=settings.getfloat("POLITENESS_BACKOFF_MAX"),
                          jitter=settings.getfloat("POLITENESS_BACKOFF_JITTER"))
        limiter = Limiter(get_pool(), lease_seconds=settings.getfloat("POLITENESS_LEASE_SECONDS"),
                          poll_seconds=settings.getfloat("POLITENESS_POLL_SECONDS"), backoff=backoff)
        middleware = cls(crawler, Policies.from_settings(settings), limiter)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    async def process_request(self, request, spider=None):
        host = urlparse_cached(request).hostname
        if not host:
            return None
        self._release(request)  # a re-queued copy never carries an old lease
        policy = self.policies.for_host(host)
        # The in-process slot follows the same key, so one process never opens a second connection to it.
        request.meta["download_slot"] = policy.key
        async with self._key_locks[policy.key]:
            while True:
                outcome = self.limiter.try_acquire(policy, request.url)
                if isinstance(outcome, Lease):
                    break
                self.stats.inc_value("gigflow/politeness/waits")
                await asyncio.sleep(min(max(outcome, 0.01), self.max_sleep))
        request.meta[LEASE] = outcome
        self._held[outcome.id] = outcome
        return None

    def process_response(self, request, response, spider=None):
        lease = self._release(request)
        if lease is None:
            return response
        if response.status in self.error_statuses:
            retry_after = retry_after_seconds(response.headers.get(b"Retry-After"))
            if retry_after is not None:
                retry_after = min(retry_after, self.max_retry_after)
                self.stats.inc_value("gigflow/politeness/retry_after")
            delay = self.limiter.record_failure(lease.key, retry_after)
            self.stats.inc_value("gigflow/politeness/backoffs")
            logger.info("HTTP %s from %s: key %s waits %.2fs%s", response.status, request.url, lease.key, delay,
                        " (Retry-After)" if retry_after is not None else "")
        else:
            self.limiter.record_success(lease.key)
        return response

    def process_exception(self, request, exception, spider=None):
        lease = self._release(request)
        # A host the connecting resolver refused is a policy block, not a network error: no backoff.
        if lease is not None and not isinstance(exception, IgnoreRequest) and not request.meta.get(
                "gigflow_policy_blocked"):
            delay = self.limiter.record_failure(lease.key)
            self.stats.inc_value("gigflow/politeness/backoffs")
            logger.info("%s on %s: key %s waits %.2fs", type(exception).__name__, request.url, lease.key, delay)
        return None

    def _release(self, request) -> Lease | None:
        lease = request.meta.pop(LEASE, None)
        if lease is not None and self._held.pop(lease.id, None) is not None:
            self.limiter.release(lease)
            return lease
        return None

    def spider_closed(self, spider, reason):
        for lease in list(self._held.values()):
            self.limiter.release(lease)
        self._held.clear()
