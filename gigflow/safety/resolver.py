"""The DNS resolver Scrapy connects with (DNS_RESOLVER): it answers FETCH_RESOLVER_OVERRIDES and checks every
address with the URL guard again, so a name cannot pass the guard and then connect to a private address
(DNS rebinding between the check and the connection)."""

from __future__ import annotations

from twisted.internet import defer
from twisted.internet.error import DNSLookupError

from scrapy.resolver import CachingThreadedResolver

from gigflow.safety.guard import FetchGuard, UnsafeURL


class GuardedResolver(CachingThreadedResolver):
    def __init__(self, reactor, cache_size: int, timeout: float, guard: FetchGuard):
        super().__init__(reactor, cache_size, timeout)
        self.guard = guard
        # host -> why the guard refused it at connection time. Twisted hands the downloader only a bare "DNS
        # lookup failed"; ConnectionGuardMiddleware reads the reason here (the resolver is one per process,
        # installed on the reactor, so it cannot reach a crawler's signals).
        self.refused: dict[str, str] = {}

    @classmethod
    def from_crawler(cls, crawler, reactor):
        settings = crawler.settings
        cache_size = settings.getint("DNSCACHE_SIZE") if settings.getbool("DNSCACHE_ENABLED") else 0
        return cls(reactor, cache_size, settings.getfloat("DNS_TIMEOUT"), FetchGuard.from_settings(settings))

    def getHostByName(self, name, timeout=()):
        override = self.guard.override(name)
        if override:
            result = defer.succeed(override[0])
        else:
            result = super().getHostByName(name, timeout)
        return result.addCallback(self._checked, name)

    def _checked(self, address: str, name: str) -> str:
        try:
            self.guard.check_address(f"dns:{name}", name, address)
        except UnsafeURL as exc:
            # Recorded so the request becomes a policy block (ConnectionGuardMiddleware), not a retried DNS error.
            self.refused[name.lower().rstrip(".")] = exc.reason
            raise DNSLookupError(exc.reason) from None
        return address
