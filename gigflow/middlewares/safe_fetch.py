"""Safe fetching: the URL guard on every request and every redirect hop, redirects followed by hand with a cap,
content types checked against what the strategy expects, quarantine on a redirect to a refused host, and a
connection-time refusal (DNS rebinding) turned into a policy block that quarantines the source.

Size and time caps are Scrapy's own DOWNLOAD_MAXSIZE and DOWNLOAD_TIMEOUT."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import urljoin, urlsplit

from scrapy.exceptions import CannotResolveHostError, IgnoreRequest
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.error import DNSLookupError
from w3lib.url import safe_url_string

from gigflow.context import CrawlContext
from gigflow.safety.guard import FetchGuard, UnsafeURL, redact_url

logger = logging.getLogger(__name__)

_REDIRECT_STATUSES = {301, 302, 303, 307, 308}
# Headers that belong to the first URL only.
_DROPPED_ON_REDIRECT = (b"Cookie", b"Authorization", b"If-None-Match", b"If-Modified-Since")
# Credentials never follow a redirect to another origin. They are set to "no value" rather than removed, so
# DefaultHeadersMiddleware (which only fills in missing headers) cannot put DEFAULT_REQUEST_HEADERS back.
_BLANKED_ACROSS_ORIGINS = (b"Authorization", b"Cookie", b"Proxy-Authorization")
# request.meta key: the connecting resolver refused this request's host; the value is the reason.
POLICY_BLOCKED = "gigflow_policy_blocked"


class PolicyBlock(IgnoreRequest):
    """A refusal by policy (unsafe URL, quarantined source): never retried."""


def _exempt(request) -> bool:
    return bool(request.meta.get("dont_obey_robotstxt") and request.url.endswith("/robots.txt"))


class SafeFetchMiddleware:
    def __init__(self, crawler, guard: FetchGuard):
        self.crawler = crawler
        self.stats = crawler.stats
        self.guard = guard
        self.context = CrawlContext.from_crawler(crawler)
        self.expected_types = {k: [t.lower() for t in v]
                               for k, v in crawler.settings.getdict("FETCH_EXPECTED_CONTENT_TYPES").items()}

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler, FetchGuard.from_settings(crawler.settings))

    async def process_request(self, request, spider=None):
        reason = self.context.quarantined()
        if reason:
            self.stats.inc_value("gigflow/safe_fetch/refused")
            raise PolicyBlock(f"source {self.context.source_id or '?'} is quarantined: {reason}")
        try:
            # Resolution may block on DNS: keep it off the reactor thread.
            await asyncio.to_thread(self.guard.check, request.url)
        except UnsafeURL as exc:
            self.stats.inc_value("gigflow/safe_fetch/refused")
            logger.warning("refused %s: %s", exc.url, exc.reason)
            raise PolicyBlock(str(exc)) from None
        return None

    def process_exception(self, request, exception, spider=None):
        """Last in the exception chain: a connection the resolver refused ends as a policy block."""
        reason = request.meta.get(POLICY_BLOCKED)
        if reason:
            raise PolicyBlock(f"refused {redact_url(request.url)} at connection time: {reason}")
        return None

    def process_response(self, request, response, spider=None):
        expected = self.expected_types.get(self.context.strategy_type, [])
        if not expected or response.status != 200 or _exempt(request):
            return response
        content_type = response.headers.get(b"Content-Type", b"").decode("latin-1").split(";")[0].strip().lower()
        if content_type and content_type not in expected:
            self.stats.inc_value("gigflow/safe_fetch/unexpected_content_type")
            raise IgnoreRequest(f"unexpected content type {content_type!r} for {response.url} "
                                f"(expected one of {', '.join(expected)})")
        return response


class ConnectionGuardMiddleware:
    """First to see a download exception. When the connecting resolver (GuardedResolver) refused the host (an
    address the guard does not admit appeared after the URL check: DNS rebinding), the source is quarantined
    and the request is marked so that it is neither retried (dont_retry) nor counted as a network error by the
    politeness backoff; SafeFetchMiddleware then raises the PolicyBlock."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.context = CrawlContext.from_crawler(crawler)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    @staticmethod
    def refusal(host: str) -> str | None:
        """Why the process's connecting resolver refused ``host``, if it is a GuardedResolver and did."""
        from twisted.internet import reactor

        return getattr(getattr(reactor, "resolver", None), "refused", {}).get(host.lower())

    def process_exception(self, request, exception, spider=None):
        if not isinstance(exception, _LOOKUP_FAILURES):
            return None
        host = (urlparse_cached(request).hostname or "").rstrip(".")
        reason = self.refusal(host)
        if reason is None:
            return None
        self.crawler.stats.inc_value("gigflow/safe_fetch/refused_at_connection")
        request.meta[POLICY_BLOCKED] = reason
        request.meta["dont_retry"] = True
        self.context.quarantine(f"connection to {request.url} refused: {reason}")
        return None


# How a refused lookup reaches the downloader: Scrapy's wrapper of Twisted's error, or Twisted's own.
_LOOKUP_FAILURES = (CannotResolveHostError, DNSLookupError)


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return parts.scheme.lower(), (parts.hostname or "").rstrip("."), port or {"http": 80, "https": 443}.get(parts.scheme)


class SafeRedirectMiddleware:
    """Replaces Scrapy's RedirectMiddleware: each hop is checked by the guard before it is requested; a hop to
    a refused host quarantines the source; at most FETCH_MAX_REDIRECTS hops."""

    def __init__(self, crawler, guard: FetchGuard, max_redirects: int):
        self.crawler = crawler
        self.stats = crawler.stats
        self.guard = guard
        self.max_redirects = max_redirects
        self.context = CrawlContext.from_crawler(crawler)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler, FetchGuard.from_settings(crawler.settings), crawler.settings.getint("FETCH_MAX_REDIRECTS"))

    async def process_response(self, request, response, spider=None):
        if (response.status not in _REDIRECT_STATUSES or request.meta.get("dont_redirect")
                or response.status in request.meta.get("handle_httpstatus_list", ())
                or b"Location" not in response.headers):
            return response
        location = safe_url_string(response.headers[b"Location"].decode("latin-1"))
        target = urljoin(request.url, location)
        hops = request.meta.get("redirect_times", 0) + 1
        if hops > self.max_redirects:
            self.stats.inc_value("gigflow/safe_fetch/too_many_redirects")
            raise IgnoreRequest(f"more than {self.max_redirects} redirects from {request.url}")
        try:
            await asyncio.to_thread(self.guard.check, target)
        except UnsafeURL as exc:
            self.stats.inc_value("gigflow/safe_fetch/refused")
            self.context.quarantine(f"redirect from {request.url} to {target}: {exc.reason}")
            raise PolicyBlock(f"redirect to {target} refused: {exc.reason}") from None
        meta = {**request.meta, "redirect_times": hops,
                "redirect_urls": [*request.meta.get("redirect_urls", []), request.url]}
        headers = request.headers.copy()
        for name in _DROPPED_ON_REDIRECT:
            headers.pop(name, None)
        if _origin(target) != _origin(request.url):
            for name in _BLANKED_ACROSS_ORIGINS:
                headers[name] = None
        if response.status in (301, 302, 303) and request.method != "HEAD":
            for name in (b"Content-Type", b"Content-Length"):
                headers.pop(name, None)
            redirected = request.replace(url=target, method="GET", body=b"", headers=headers, meta=meta)
        else:
            redirected = request.replace(url=target, headers=headers, meta=meta)
        self.stats.inc_value("gigflow/safe_fetch/redirects")
        return redirected
