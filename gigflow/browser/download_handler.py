"""The click spider's download handler: scrapy-playwright's, without the silent re-send.

Kept apart from gigflow.browser.page_requests: ``DOWNLOAD_HANDLERS`` names it by dotted path, so scrapy-playwright
(and the Scrapy modules it pulls in) is imported only when a click crawl builds its downloader."""

from __future__ import annotations

from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from gigflow.politeness.download_handler import NoSilentRetry


class PolitePlaywrightDownloadHandler(NoSilentRetry, ScrapyPlaywrightDownloadHandler):
    """scrapy-playwright's handler; its plain-HTTP fallback does not silently re-send (gigflow.politeness.download_handler)."""
