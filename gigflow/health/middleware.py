"""Each response's status and content type are counted for the run's health (here, before the fetch guard may
refuse an unexpected type). A bot challenge or CAPTCHA wall stops the source's run at once
(``incomplete:anti_bot``) and backs its politeness key off; the response never reaches a callback, so its body
is never stored as a page."""

from __future__ import annotations

import logging

from scrapy.exceptions import IgnoreRequest
from scrapy.utils.defer import deferred_from_coro
from scrapy.utils.httpobj import urlparse_cached

from gigflow import keys
from gigflow.health.antibot import challenge_kind
from gigflow.health.metrics import base_content_type
from gigflow.safety.guard import redact_url

logger = logging.getLogger(__name__)
ANTI_BOT_STAT, STATUS_STAT, CONTENT_TYPE_STAT = keys.ANTI_BOT, keys.STATUS, keys.CONTENT_TYPE


class ResponseHealthMiddleware:
    """Sits above RetryMiddleware (its process_response runs first), so a challenge is never retried."""

    def __init__(self, crawler, max_text_chars: int):
        self.crawler = crawler
        self.stop_on_challenge = crawler.settings.getbool("ANTIBOT_STOP_RUN")
        self.max_text_chars = max_text_chars
        self.stopped = False

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler, crawler.settings.getint("ANTIBOT_MAX_TEXT_CHARS"))

    def process_response(self, request, response, spider=None):
        if urlparse_cached(request).path != "/robots.txt":
            self.count(response)
        headers = {k.decode("latin-1").lower(): (v[0].decode("latin-1") if v else "")
                   for k, v in response.headers.items()}
        kind = self.stop_on_challenge and challenge_kind(response.status, headers, response.body or b"", max_text_chars=self.max_text_chars)
        if not kind:
            return response
        spider = spider or self.crawler.spider
        url = redact_url(request.url)
        self.crawler.stats.inc_value(ANTI_BOT_STAT)
        self.crawler.stats.set_value(keys.ANTI_BOT_KIND, kind)
        if hasattr(spider, "mark_incomplete"):
            spider.mark_incomplete(f"{url} answered {response.status} with a {kind} bot challenge; gigflow does "
                                   f"not solve or evade challenges", "anti_bot")
        self._back_off(request)
        if not self.stopped:
            self.stopped = True
            logger.warning("bot challenge (%s) at %s: the run stops", kind, url)
            deferred_from_coro(self.crawler.engine.close_spider_async(reason="anti_bot"))
        raise IgnoreRequest(f"bot challenge ({kind}) at {url}")

    def count(self, response) -> None:
        stats = self.crawler.stats
        stats.inc_value(f"{STATUS_STAT}{response.status}")
        if 200 <= response.status < 300:
            content_type = (response.headers.get(b"Content-Type") or b"").decode("latin-1")
            stats.inc_value(f"{CONTENT_TYPE_STAT}{base_content_type(content_type)}")

    def _back_off(self, request) -> None:
        from gigflow.middlewares.politeness import politeness_gate

        host = urlparse_cached(request).hostname
        gate = politeness_gate(self.crawler)
        if not host or gate is None:  # without the politeness middleware no key is shared to back off
            return
        try:
            # No further request of this run goes to the key: those waiting for it are dropped, none is retried.
            delay = gate.stop_and_back_off(host, f"{host} answered a bot challenge")
            self.crawler.stats.set_value("gigflow/anti_bot_backoff_s", round(delay, 1))
        except Exception as exc:  # the run stops either way
            logger.warning("could not back off %s after a bot challenge: %s", host, exc)
