"""Scrapy's meta refresh, but a refresh to anything other than http(s) (``javascript:``, ``data:``, a malformed
target) is ignored and the page is read as it is: Scrapy raised building the request, failing the fetch and with
it the run."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from scrapy.downloadermiddlewares.redirect import MetaRefreshMiddleware
from scrapy.http import HtmlResponse
from scrapy.utils.response import get_meta_refresh

from gigflow.safety.guard import redact_url

logger = logging.getLogger(__name__)


class SafeMetaRefreshMiddleware(MetaRefreshMiddleware):
    def process_response(self, request, response):
        if isinstance(response, HtmlResponse) and not request.meta.get("dont_redirect"):
            try:
                _, url = get_meta_refresh(response, ignore_tags=self._ignore_tags)
                scheme = urlsplit(url).scheme.lower() if url else "http"
            except ValueError:
                url, scheme = "(unreadable)", ""
            if scheme not in ("http", "https"):
                self.crawler.stats.inc_value("gigflow/meta_refresh_ignored")
                logger.info("meta refresh on %s to a non-http target ignored", redact_url(response.url))
                return response
        try:
            return super().process_response(request, response)  # Scrapy 2.13+: no spider argument
        except ValueError as exc:  # a target Request refuses: the page stands
            self.crawler.stats.inc_value("gigflow/meta_refresh_ignored")
            logger.info("meta refresh on %s ignored: %s", redact_url(response.url), str(exc)[:200])
            return response
