"""Credentials stay with their source: a request to an origin the source does not name is sent without
``Authorization``, ``Cookie`` and ``Proxy-Authorization``, whoever put them there (DEFAULT_REQUEST_HEADERS, a
spider, a redirect). robots.txt of another origin, job pages linked from the listing to another host and the hops of
a redirect all fall under the same rule.

Runs after DefaultHeadersMiddleware (400), which fills the defaults in, and before CookiesMiddleware (700): cookies a
site set itself in the cookie jar are scoped by the jar and still go back to that site."""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from scrapy.utils.httpobj import urlparse_cached

from gigflow.context import CrawlContext

logger = logging.getLogger(__name__)

CREDENTIAL_HEADERS = (b"Authorization", b"Cookie", b"Proxy-Authorization")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) of an http(s) URL, the port made explicit; None for anything else."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower().rstrip("."), port or _DEFAULT_PORTS[scheme]


def source_urls(config, settings) -> list[str]:
    """Every URL a source's configuration names: its canonical URL and each strategy's start URLs."""
    urls = [config.canonical_url]
    for strategy in config.strategies:
        for name in ("listing_urls", "sitemap_urls", "feed_urls"):
            urls += list(getattr(strategy, name, None) or [])
        if getattr(strategy, "listing_url", None):
            urls.append(strategy.listing_url)
        if strategy.type == "ats":
            from gigflow.adapters.ats import base_url

            urls.append(base_url(strategy.provider, strategy.board_id, strategy.region,
                                 settings.getdict("ATS_BASE_URLS")))
    return urls


class CredentialScopeMiddleware:
    def __init__(self, crawler):
        self.crawler = crawler
        self.context = CrawlContext.from_crawler(crawler)
        self.extra = {o for o in map(origin_of, crawler.settings.getlist("CREDENTIAL_ORIGINS")) if o}
        self._scope: set | None = None

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def scope(self) -> set | None:
        """The origins credentials may go to; None while no source is attached (nothing to scope by)."""
        if self._scope is None and self.context.record is not None:
            config = self.context.record.config
            self._scope = {o for o in map(origin_of, source_urls(config, self.crawler.settings)) if o} | self.extra
        return self._scope

    def process_request(self, request, spider=None):
        present = [name for name in CREDENTIAL_HEADERS if request.headers.get(name)]
        if not present:
            return None
        scope = self.scope()
        if scope is None:
            return None
        parts = urlparse_cached(request)
        origin = origin_of(f"{parts.scheme}://{parts.netloc}/")
        if origin in scope:
            return None
        for name in present:
            del request.headers[name]
        self.crawler.stats.inc_value("gigflow/credentials/withheld")
        logger.debug("%s withheld from %s://%s (not an origin of the source)",
                     b", ".join(present).decode(), parts.scheme, parts.hostname)
        return None
