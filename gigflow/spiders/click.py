"""click strategy: a JavaScript listing whose items reveal a detail region when clicked (headless Chromium).

The listing is opened through scrapy-playwright (enabled for this spider only). Each configured item is clicked in
turn, also items revealed by the "load more" or pagination control the configuration names; once the detail
region has appeared and settled, its HTML is captured and handed to the one preparation path as a job response:
``CaptureMiddleware`` answers the capture request from ``meta["gigflow_capture_html"]`` without a fetch, so the
preparation middleware, the adapters and the storage pipeline see it like any fetched page.

A detail that keeps the listing's URL is stored as ``<listing>#item=<key>`` (the key comes from the item's
``data-job-id``, ``data-id``, ``data-key``, ``id`` or link, else a hash of its text), and its jobs get that key as
external id, so each stays one job. Images, fonts and media are never downloaded. Every ``CLICK_ITEMS_PER_CONTEXT``
items the page and its browser context are closed and the listing is opened in a fresh context, so the browser's
memory stays flat however long the listing is.

Politeness per request, not per click: once the listing has loaded, every network request the page makes (a
detail fetch, a navigation, a load-more) is routed through ``BrowserPoliteness`` and waits for a lease on its
politeness key like any Scrapy request; a click that makes no request costs the site nothing and does not wait.
"""

from __future__ import annotations

import asyncio
import hashlib
import html
import os
import shutil
from contextlib import aclosing
from urllib.parse import quote, urldefrag

import scrapy

from gigflow.browser.page_requests import BrowserPoliteness, PoliteDeadline, InflightRequests, block_heavy_resources
from gigflow.middlewares.capture import CaptureMiddleware
from gigflow.middlewares.politeness import politeness_gate
from gigflow.middlewares.preparation import CAPTURE_HTML
from gigflow.spiders.base import SourceSpider
from gigflow.browser.page_scripts import DETAIL_HTML_JS, DETAIL_STATE_JS, ITEM_KEY_JS, REQUEST_COUNTER_JS

CAPTURE_KEY = "gigflow_capture_key"
CAPTURE_KEPT_URL = "gigflow_capture_kept_url"
PLAYWRIGHT_HANDLER = "gigflow.browser.download_handler.PolitePlaywrightDownloadHandler"  # by dotted path: imported by a click crawl only


def _text_key(key: str | None, text: str | None) -> str:
    if key:
        return key
    return "text=" + hashlib.sha1(" ".join((text or "").split()).encode("utf-8")).hexdigest()[:16]

class ClickSpider(SourceSpider):
    name = "click"
    strategy_type = "click"
    custom_settings = {
        "DOWNLOAD_HANDLERS": {"http": PLAYWRIGHT_HANDLER, "https": PLAYWRIGHT_HANDLER},
        "PLAYWRIGHT_BROWSER_TYPE": "chromium",
        "PLAYWRIGHT_ABORT_REQUEST": block_heavy_resources,
        "PLAYWRIGHT_MAX_CONTEXTS": 1,
        "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": 1,
    }

    @classmethod
    def update_settings(cls, settings):
        super().update_settings(settings)
        middlewares = settings.getdict("DOWNLOADER_MIDDLEWARES")
        middlewares[f"{CaptureMiddleware.__module__}.CaptureMiddleware"] = 1
        settings.set("DOWNLOADER_MIDDLEWARES", middlewares, priority="spider")
        launch = {"headless": settings.getbool("CLICK_HEADLESS"), "args": ["--disable-dev-shm-usage"]}
        path = settings.get("CLICK_CHROMIUM_PATH")
        if not (path and os.access(path, os.X_OK)):
            path = shutil.which("chromium")
        if path:
            launch["executable_path"] = path  # else Playwright's own Chromium (`playwright install chromium`)
        settings.set("PLAYWRIGHT_LAUNCH_OPTIONS", {**launch, **settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS")},
                     priority="spider")

    async def start(self):
        settings = self.crawler.settings
        self.max_items = min(self.strategy.max_items, settings.getint("CLICK_MAX_ITEMS"))
        self.items_per_context = max(1, settings.getint("CLICK_ITEMS_PER_CONTEXT"))
        self.timeout_ms = settings.getfloat("CLICK_TIMEOUT") * 1000
        self.max_reveals = settings.getint("CLICK_MAX_REVEALS")
        self.settle = settings.getfloat("CLICK_SETTLE")
        self.gate = politeness_gate(self.crawler)
        if self.gate is None:  # the browser's requests would go unpaced
            raise RuntimeError("the click spider needs gigflow.middlewares.politeness.PolitenessMiddleware enabled")
        self.seen_keys: set[str] = set()
        self.capture_failures = 0
        yield self.listing_request(batch=1)

    def listing_request(self, batch: int) -> scrapy.Request:
        return scrapy.Request(self.strategy.listing_url, callback=self.parse_listing, errback=self.listing_failed,
                              dont_filter=True, cb_kwargs={"batch": batch},
                              meta={"playwright": True, "playwright_include_page": True,
                                    "playwright_context": f"click-{batch}"})

    async def listing_failed(self, failure):
        page = failure.request.meta.get("playwright_page")
        if page is not None:
            await _close(page)
        self.on_fetch_error(failure)

    async def parse_listing(self, response, batch: int):
        page = response.meta["playwright_page"]
        self.crawler.stats.inc_value("gigflow/listing_pages")
        more, seen_before = False, len(self.seen_keys)
        politeness = BrowserPoliteness(self.gate, self.crawler.stats)
        try:
            page.gigflow_inflight = InflightRequests(page)
            page.gigflow_politeness = politeness
            await politeness.attach(page)
            async with aclosing(self.click_items(page, response.url)) as outcomes:
                async for outcome in outcomes:
                    if outcome is None:  # this context has done its share; more items remain
                        more = True
                        break
                    yield outcome
        except Exception as exc:  # a broken page never crashes the crawl; it does make the run incomplete
            self.mark_incomplete(f"click listing {response.url}: {exc.__class__.__name__}: {exc}", "listing_unreadable")
        finally:
            politeness.release_all()
            await _close(page)
        if more:
            yield self.listing_request(batch + 1)
        elif batch > 1 and len(self.seen_keys) == seen_before:
            # The previous context stopped at its share with items left: this one showed none of them.
            self.mark_incomplete(f"click listing {response.url}: the remaining items did not appear",
                                 "listing_unreadable")
        elif not self.seen_keys:
            self.mark_incomplete(f"no item matched {self.strategy.item_selector!r}", "empty_listing")
        if self.capture_failures and not more:
            self.mark_incomplete(f"{self.capture_failures} item(s) revealed no detail", "capture_failed")

    async def click_items(self, page, listing_url: str):
        """Yields a capture request per new item, then None when this context should be recycled."""
        strategy, done_here, reveals, changes = self.strategy, 0, 0, 0
        # Items rendered from data the page fetches after its load event (through the politeness gate): wait for
        # the first to appear; none in time, and the list is read as it is (an empty listing is reported).
        appeared = PoliteDeadline(page.gigflow_politeness, self.timeout_ms / 1000)
        while not await page.locator(strategy.item_selector).count() and not appeared.expired():
            await page.wait_for_timeout(100)
        while True:
            items = page.locator(strategy.item_selector)
            found_new = False
            for index, key in enumerate(await self.item_keys(page)):  # one round trip for the whole list
                if key in self.seen_keys:
                    continue
                found_new = True
                if len(self.seen_keys) >= self.max_items:
                    self.mark_incomplete(f"more items than the cap of {self.max_items}", "cap_reached")
                    return
                if done_here >= self.items_per_context:
                    yield None
                    return
                item = items.nth(index)
                if await self.item_key(item) != key:
                    changes += 1
                    if changes <= 3:
                        break  # the list changed under us (a capture re-rendered it): read it again
                    self.logger.warning("item %s keeps changing; skipped", key)
                    self.seen_keys.add(key)
                    self.capture_failures += 1
                    continue
                self.seen_keys.add(key)
                done_here += 1
                request = await self.capture(page, item, key, listing_url)
                if request is not None:
                    yield request
            if found_new:
                continue  # re-read the items: a capture may have changed the list
            if not strategy.load_more_selector or reveals >= self.max_reveals or not await self.reveal_more(page):
                return
            reveals += 1

    async def item_key(self, item) -> str:
        return _text_key(*await item.evaluate(ITEM_KEY_JS))

    async def item_keys(self, page) -> list[str]:
        pairs = await page.eval_on_selector_all(self.strategy.item_selector, f"els => els.map({ITEM_KEY_JS})")
        return [_text_key(*pair) for pair in pairs]

    async def reveal_more(self, page) -> bool:
        """Clicks the load-more or next-page control; True once the list of items has changed."""
        control = page.locator(self.strategy.load_more_selector).first
        if not await control.count() or not await control.is_visible() or not await control.is_enabled():
            return False
        before = await self.item_keys(page)
        await control.click(timeout=self.timeout_ms)
        self.crawler.stats.inc_value("gigflow/click_reveals")
        deadline = PoliteDeadline(page.gigflow_politeness, self.timeout_ms / 1000)
        while not deadline.expired():
            if await self.item_keys(page) != before:  # appended (load more) or replaced (next page)
                return True
            await page.wait_for_timeout(100)
        return False

    async def capture(self, page, item, key: str, listing_url: str):
        """Click one item, wait for its detail region to appear and settle, and build its capture request."""
        before = await page.evaluate(DETAIL_HTML_JS, self.strategy.detail_selector)
        url_before = page.url
        try:
            await item.scroll_into_view_if_needed(timeout=self.timeout_ms)
            started_before = await page.evaluate(REQUEST_COUNTER_JS)
            clicked = asyncio.get_running_loop().time()
            await item.click(timeout=self.timeout_ms)
            captured = await self.settled_detail(page, before, clicked, started_before)
        except Exception as exc:  # one item that never reveals its detail costs that item only
            self.capture_failures += 1
            self.crawler.stats.inc_value("gigflow/click_failures")
            self.logger.warning("item %s revealed no detail: %s", key, exc)
            return None
        detail_url = page.url
        if not await page.locator(self.strategy.item_selector).count():
            # A real navigation away from the listing: come back for the next item.
            await page.go_back(timeout=self.timeout_ms)
            await page.locator(self.strategy.item_selector).first.wait_for(timeout=self.timeout_ms)
        # A detail that did not change the address (pushState or navigation) keeps the listing's URL.
        kept = urldefrag(detail_url).url in (urldefrag(url_before).url, urldefrag(listing_url).url)
        url = f"{urldefrag(listing_url).url}#item={quote(key, safe='=')}" if kept else detail_url
        title = await page.title()
        document = (f'<!doctype html><html><head><meta charset="utf-8"><base href="{html.escape(detail_url)}">'
                    f"<title>{html.escape(title)}</title></head><body>{captured}</body></html>")
        return self.job_request(url, dont_filter=True,
                                meta={CAPTURE_HTML: document, CAPTURE_KEY: key, CAPTURE_KEPT_URL: kept})

    async def settled_detail(self, page, before: str | None, clicked: float = float("inf"),
                             started_before: int | None = None) -> str:
        """The detail region's HTML once it differs from ``before`` and stays the same for two reads (``clicked``:
        the event-loop time of the click; ``started_before``: how many requests the page had made before it)."""
        politeness = page.gigflow_politeness
        appeared = PoliteDeadline(politeness, self.timeout_ms / 1000)
        current = await page.evaluate(DETAIL_HTML_JS, self.strategy.detail_selector)
        while current is None or current == before:
            if appeared.expired():
                raise TimeoutError(f"no new detail in {self.strategy.detail_selector!r} after the click")
            await page.wait_for_timeout(100)
            current = await page.evaluate(DETAIL_HTML_JS, self.strategy.detail_selector)
        # Content rendered in steps (a spinner, then the text) has settled once it stayed the same for
        # CLICK_SETTLE seconds with no request of the page in flight; a request that never ends (long polling)
        # stops counting after four times that, unless the click started it (the detail's own fetch from a slow
        # API: waited for up to CLICK_TIMEOUT, or a spinner is captured). A request still waiting for its politeness
        # turn always counts. The page's own count of its fetches is read with the region itself, so a fetch the
        # click made counts before the browser reports it; quiet counts from the end of the click's last request,
        # as the page may still be drawing what it brought.
        inflight = page.gigflow_inflight
        loop = asyncio.get_running_loop()
        deadline = PoliteDeadline(politeness, self.timeout_ms / 1000)
        mark = started_before if started_before is not None else 2 ** 31
        calm_since, ended = loop.time(), None
        while not deadline.expired():
            await page.wait_for_timeout(100)
            latest, open_in_page, last_ended_in_page = await page.evaluate(
                DETAIL_STATE_JS, [self.strategy.detail_selector, mark])
            if latest != current or politeness.waiting or open_in_page or last_ended_in_page != ended:
                current, ended, calm_since = latest, last_ended_in_page, loop.time()
                continue
            calm = loop.time() - max(calm_since, inflight.last_ended_since(clicked))
            if calm >= self.settle and (not inflight.count or calm >= 4 * self.settle) \
                    and not inflight.started_since(clicked):
                break
        if current is None:
            raise TimeoutError("the detail region disappeared")
        return current

    def parse_job(self, response):
        for item in super().parse_job(response):
            if response.meta.get(CAPTURE_KEPT_URL):
                key = response.meta[CAPTURE_KEY]
                for job in item["jobs"]:
                    if not job.get("external_id"):
                        # Details that keep the listing's URL share it: the item key is their identity.
                        job["external_id"] = f"click:{key}"
                        job.setdefault("evidence", {})["external_id"] = {
                            "method": "meta", "snippet_or_path": f"click item key {key}"[:500], "confidence": 0.9}
            yield item


async def _close(page) -> None:
    """Close the page and its context (contexts are per batch), whatever state they are in."""
    try:
        await page.close()
    finally:
        try:
            await page.context.close()
        except Exception:  # already closed with the browser
            pass
