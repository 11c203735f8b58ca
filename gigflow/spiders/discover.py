"""One polite, guarded fetch of a career page for `scrapy sources discover URL`: the crawl's own fetch guard,
robots.txt, shared politeness limiter and bot-challenge stop, with nothing stored (no source, no pipelines)."""

from __future__ import annotations

import scrapy

# Downloader middlewares and extensions that belong to a source's run (its stored versions, schedule, health):
# a discovery fetch has no source, so they stay off.
SOURCE_ONLY_MIDDLEWARES = ("gigflow.middlewares.preparation.PreparationMiddleware",
                           "gigflow.middlewares.conditional_get.ConditionalGetMiddleware")
SOURCE_ONLY_EXTENSIONS = ("gigflow.scheduling.extension.AdaptiveScheduleExtension",
                          "gigflow.noise.learn.lifecycle.extension.NoiseReviewTrigger",
                          "gigflow.health.extension.HealthExtension",
                          "gigflow.maintenance.extension.ResolveAfterCrawl")


class DiscoverSpider(scrapy.Spider):
    name = "discover"

    def __init__(self, url: str | None = None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not url:
            raise ValueError("usage: scrapy sources discover URL")
        self.url = url
        self.fetched: dict | None = None
        self.failure: str | None = None

    @classmethod
    def update_settings(cls, settings):
        super().update_settings(settings)
        middlewares = dict(settings.getdict("DOWNLOADER_MIDDLEWARES"))
        middlewares.update({name: None for name in SOURCE_ONLY_MIDDLEWARES})
        extensions = dict(settings.getdict("EXTENSIONS"))
        extensions.update({name: None for name in SOURCE_ONLY_EXTENSIONS})
        settings.set("DOWNLOADER_MIDDLEWARES", middlewares, priority="spider")
        settings.set("EXTENSIONS", extensions, priority="spider")
        settings.set("ITEM_PIPELINES", {}, priority="spider")

    async def start(self):
        yield scrapy.Request(self.url, callback=self.parse, errback=self.failed, dont_filter=True,
                             meta={"handle_httpstatus_all": True})

    def parse(self, response):
        self.fetched = {"url": response.url, "status": response.status, "body": response.body,
                        "content_type": (response.headers.get(b"Content-Type") or b"").decode("latin-1")}
        return []

    def failed(self, failure):
        self.failure = f"{failure.type.__name__}: {failure.getErrorMessage()}"[:500]

    def mark_incomplete(self, reason: str, code: str = "") -> None:
        """Called by the health middleware at a bot challenge: discovery stops there and says so."""
        self.failure = reason
