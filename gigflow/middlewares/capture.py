"""The click spider's captures reach the one preparation path as responses, without a fetch."""

from __future__ import annotations

from scrapy.http import HtmlResponse

from gigflow.middlewares.preparation import CAPTURE_HTML


class CaptureMiddleware:
    """Answers capture requests from their meta: the detail HTML the click spider captured, no fetch.

    Its process_request runs first (priority 1, click spider only), so the response skips the network, the
    download slot and its delay, yet passes back through every middleware's process_response, preparation included.
    """

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def __init__(self, crawler):
        self.stats = crawler.stats

    def process_request(self, request, spider=None):
        captured = request.meta.get(CAPTURE_HTML)
        if captured is None:
            return None
        self.stats.inc_value("gigflow/click_captures")
        return HtmlResponse(url=request.url, status=200, body=captured.encode("utf-8"), encoding="utf-8",
                            headers={"Content-Type": "text/html; charset=utf-8"}, request=request)
