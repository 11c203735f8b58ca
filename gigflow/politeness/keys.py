"""Politeness keys: which budget a request spends. Registrable domain by default, provider hosts by policy."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit
from dataclasses import dataclass
from typing import Any, Mapping

import tldextract

# The bundled public-suffix list only: never a network fetch.
_extract = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def registrable_domain(url_or_host: str) -> str:
    """eTLD+1 of a URL or host; IP addresses and single labels are their own key."""
    host = urlsplit(url_or_host).hostname or "" if "://" in url_or_host else url_or_host
    host = host.lower().strip("[]").rstrip(".")
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    parts = _extract(host)
    return parts.top_domain_under_public_suffix or parts.domain or host


@dataclass(frozen=True)
class Policy:
    """A politeness budget: at most ``concurrency`` requests at once, starts ``interval`` seconds apart."""

    key: str
    interval: float
    concurrency: int = 1


class PolicyError(ValueError):
    pass


def _policy_from(name: str, spec: Any, default_interval: float) -> Policy:
    if not isinstance(spec, Mapping):
        raise PolicyError(f"politeness policy {name!r} must be a mapping, got {spec!r}")
    unknown = set(spec) - {"interval", "per_minute", "concurrency"}
    if unknown:
        raise PolicyError(f"politeness policy {name!r} has unknown field(s) {sorted(unknown)}")
    if "interval" in spec and "per_minute" in spec:
        raise PolicyError(f"politeness policy {name!r}: give interval or per_minute, not both")
    try:
        if "per_minute" in spec:
            per_minute = float(spec["per_minute"])
            if per_minute <= 0:
                raise PolicyError(f"politeness policy {name!r}: per_minute must be positive")
            interval = 60.0 / per_minute
        else:
            interval = float(spec.get("interval", default_interval))
        concurrency = int(spec.get("concurrency", 1))
    except (TypeError, ValueError) as exc:
        raise PolicyError(f"politeness policy {name!r}: {exc}") from None
    if interval < 0 or concurrency < 1:
        raise PolicyError(f"politeness policy {name!r}: interval must be >= 0 and concurrency >= 1")
    return Policy(key=name.lower(), interval=interval, concurrency=concurrency)


class Policies:
    """Maps a host to its Policy. A policy named ``api.lever.co`` covers that host and its subdomains; a policy
    named after a registrable domain covers the whole domain. The longest matching name wins; without a match
    the key is the host's registrable domain with the default interval."""

    def __init__(self, default_interval: float, policies: Mapping[str, Any] | None = None):
        if default_interval < 0:
            raise PolicyError(f"POLITENESS_MIN_INTERVAL must be >= 0, got {default_interval}")
        self.default_interval = default_interval
        self.policies = {name.lower(): _policy_from(name, spec, default_interval)
                         for name, spec in (policies or {}).items()}

    @classmethod
    def from_settings(cls, settings) -> "Policies":
        merged = {**settings.getdict("POLITENESS_PROVIDER_POLICIES"), **settings.getdict("POLITENESS_DOMAIN_POLICIES")}
        return cls(settings.getfloat("POLITENESS_MIN_INTERVAL"), merged)

    def for_host(self, host: str) -> Policy:
        host = host.lower().strip("[]").rstrip(".")
        best = None
        for name, policy in self.policies.items():
            if (host == name or host.endswith("." + name)) and (best is None or len(name) > len(best.key)):
                best = policy
        if best is not None:
            return best
        return Policy(key=registrable_domain(host), interval=self.default_interval)
