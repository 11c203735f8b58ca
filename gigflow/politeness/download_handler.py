"""Scrapy's HTTP/1.1 download handler without the transport's silent retry.

Twisted's connection pool re-sends an idempotent request once, at once, when a kept-alive connection it reused
closes before any response (a server's idle reset). That second request never passes the downloader
middlewares: it would reach the site outside the shared limiter and count as no error. With the retry off, the
failure reaches ``PolitenessMiddleware.process_exception`` (an error for the key's backoff) and Scrapy's
RetryMiddleware re-queues the request, which then waits at the limiter like any other."""

from __future__ import annotations

from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler


class NoSilentRetry:
    """Mixin for handlers built on HTTP11DownloadHandler (its ``_pool`` is Twisted's HTTPConnectionPool)."""

    def __init__(self, crawler, *args, **kwargs):
        super().__init__(crawler, *args, **kwargs)
        self._pool.retryAutomatically = False


class PoliteHTTP11DownloadHandler(NoSilentRetry, HTTP11DownloadHandler):
    """``DOWNLOAD_HANDLERS`` for http and https (gigflow.settings)."""
