"""Politeness inside headless Chromium (the click spider): every network request the page makes waits for a
lease on its politeness key like any Scrapy request. The Playwright download handler (which never re-sends
silently) lives in gigflow.browser.download_handler: the click spider names it by dotted path, so that
scrapy-playwright is imported only by a crawl that uses it, not by every command that loads the spiders."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from gigflow.middlewares.politeness import PolitenessGate

BLOCKED_RESOURCE_TYPES = frozenset({"image", "font", "media"})


def block_heavy_resources(request) -> bool:
    """PLAYWRIGHT_ABORT_REQUEST: a job text never needs images, fonts or media."""
    return request.resource_type in BLOCKED_RESOURCE_TYPES


class BrowserPoliteness:
    """Routes the page's network requests through the politeness gate: each waits for a lease on its key and
    settles it when it finishes (its status, or a failure, counts for the key's backoff). Requests for blocked
    resource types pass on untouched (they are aborted next, never reaching the site)."""

    def __init__(self, gate: PolitenessGate, stats):
        self.gate = gate
        self.stats = stats
        self.leases: dict = {}  # Playwright request -> Lease
        self._waiting_since: dict = {}  # Playwright request -> loop time it began waiting for its lease
        self._waited = 0.0  # seconds requests spent waiting for leases, finished waits

    @property
    def waiting(self) -> int:
        """Requests waiting for their turn now: the site has not been asked yet."""
        return len(self._waiting_since)

    def lease_wait_seconds(self) -> float:
        """Seconds requests of this page have spent waiting for leases, ongoing waits included. A click's
        timeout runs only while nothing waits: waiting for the site's turn is not the site being slow."""
        now = asyncio.get_running_loop().time()
        return self._waited + sum(now - since for since in self._waiting_since.values())

    async def attach(self, page) -> None:
        page.on("requestfinished", self._finished)
        page.on("requestfailed", self._failed)
        await page.route("**", self._route)  # registered last, so it runs before scrapy-playwright's own route

    async def _route(self, route, request) -> None:
        host = urlparse_host(request.url)
        if host is None or request.resource_type in BLOCKED_RESOURCE_TYPES:
            await route.fallback()
            return
        loop = asyncio.get_running_loop()
        self._waiting_since[request] = loop.time()
        try:
            lease = await self.gate.acquire(host, request.url)
        finally:
            self._waited += loop.time() - self._waiting_since.pop(request)
        self.leases[request] = lease
        self.stats.inc_value("gigflow/politeness/browser_requests")
        try:
            await route.fallback()
        except Exception:
            self.gate.release(self.leases.pop(request, None))
            raise

    async def _finished(self, request) -> None:
        lease = self.leases.pop(request, None)
        if lease is None:
            return
        response = await request.response()
        if response is None:
            self.gate.release(lease)
            return
        self.gate.settle_response(lease, response.status, await response.header_value("retry-after"), request.url)

    def _failed(self, request) -> None:
        lease = self.leases.pop(request, None)
        if lease is None:
            return
        failure = request.failure or "request failed"
        if "ERR_ABORTED" in failure:  # the page gave up on it (navigation, closing): not the site's error
            self.gate.release(lease)
        else:
            self.gate.settle_error(lease, failure, request.url)

    def release_all(self) -> None:
        """The page is closing: requests still in flight will not report back."""
        for lease in self.leases.values():
            self.gate.release(lease)
        self.leases.clear()


class PoliteDeadline:
    """A timeout that does not run while the page's requests wait for their politeness lease."""

    def __init__(self, politeness: BrowserPoliteness, seconds: float):
        self.politeness = politeness
        self.start = asyncio.get_running_loop().time()
        self.seconds = seconds
        self.waited_before = politeness.lease_wait_seconds()

    def expired(self) -> bool:
        waited = self.politeness.lease_wait_seconds() - self.waited_before
        return asyncio.get_running_loop().time() >= self.start + self.seconds + waited


def urlparse_host(url: str) -> str | None:
    parts = urlsplit(url)
    return parts.hostname if parts.scheme in ("http", "https") else None


class InflightRequests:
    """The page's requests still in flight (fetches a click started), with when each started (event-loop time)."""

    def __init__(self, page):
        self._started_at: dict = {}
        self._done: list[tuple[float, float]] = []  # (started, ended) of the last requests that ended
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    @property
    def count(self) -> int:
        return len(self._started_at)

    def started_since(self, moment: float) -> int:
        """How many of them started at ``moment`` or later (after a click: the detail's own fetches)."""
        return sum(1 for started in self._started_at.values() if started >= moment)

    def last_ended_since(self, moment: float) -> float:
        """When the last of the requests that started at ``moment`` or later ended (-inf if none has): the page
        may still be drawing what it brought, so quiet is counted from then."""
        return max((ended for started, ended in self._done if started >= moment), default=float("-inf"))

    def _started(self, request):
        self._started_at[request] = asyncio.get_running_loop().time()

    def _ended(self, request):
        started = self._started_at.pop(request, None)
        if started is not None:
            self._done = [*self._done[-31:], (started, asyncio.get_running_loop().time())]
