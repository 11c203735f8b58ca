"""Every job response passes through here, so all strategies share one preparation path."""

from __future__ import annotations

import logging

from scrapy.http import TextResponse

from gigflow.documents import prepare_html

logger = logging.getLogger(__name__)

PREPARED = "gigflow_prepared"
JOB = "gigflow_job"


class PreparationMiddleware:
    """Prepares responses of requests marked ``meta["gigflow_job"]`` and puts the PreparedDocument in meta."""

    @classmethod
    def from_crawler(cls, crawler):
        return cls()

    def process_response(self, request, response, spider=None):
        if not request.meta.get(JOB) or not isinstance(response, TextResponse) or response.status != 200:
            return response
        try:
            request.meta[PREPARED] = prepare_html(response.body, response.url,
                                                  content_type=response.headers.get("Content-Type", b"").decode("latin-1"))
        except Exception as exc:  # a malformed page never crashes a crawl
            logger.warning("preparation failed for %s: %s", response.url, exc)
            request.meta[PREPARED] = None
        return response
