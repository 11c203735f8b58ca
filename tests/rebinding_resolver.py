"""A connecting resolver for tests that plays a DNS-rebinding name: the URL guard's check sees
FETCH_RESOLVER_OVERRIDES (a loopback address the tests allow), the connection then gets a private address.

Used with ``-s TWISTED_DNS_RESOLVER=tests.rebinding_resolver.RebindingResolver``; names under ``rebind.test``
rebind to 10.0.0.7 (never connected to: the guard refuses it first)."""

from twisted.internet import defer

from gigflow.safety.resolver import GuardedResolver

REBOUND_ADDRESS = "10.0.0.7"


class RebindingResolver(GuardedResolver):
    def getHostByName(self, name, timeout=()):
        if name == "rebind.test" or name.endswith(".rebind.test"):
            return defer.succeed(REBOUND_ADDRESS).addCallback(self._checked, name)
        return super().getHostByName(name, timeout)
