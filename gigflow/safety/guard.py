"""The URL guard: every URL and every redirect hop is checked before it is requested (SSRF defence)."""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]


class UnsafeURL(Exception):
    """A URL the guard refuses; ``reason`` says why in words an operator can act on. The URL is kept with its
    userinfo redacted, so a password never reaches a log line or a quarantine reason."""

    def __init__(self, url: str, reason: str):
        url = redact_url(url)
        super().__init__(f"refused {url}: {reason}")
        self.url = url
        self.reason = reason


# -- the URL policy shared by import, preparation, extraction, redirects and logs ------------------------------

# What browsers strip before parsing a URL (WHATWG): C0 controls and space at both ends, tab and newlines inside.
_URL_EDGE = "".join(map(chr, range(0x21)))
_URL_INNER = re.compile(r"[\t\n\r]")
# userinfo in anything that looks like an absolute URL with an authority, wherever it appears in a text.
_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s\"'<>]*@")


class UnresolvableHost(UnsafeURL):
    """The host name does not resolve (or to no address): not a policy refusal, the site is not there."""


def canonical_url(value: str) -> str:
    """The URL as a browser (and the fetch guard) reads it: edge controls and inner tabs/newlines removed."""
    return _URL_INNER.sub("", value.strip(_URL_EDGE))


def redact_url(text: str) -> str:
    """Userinfo (``user:password@``) replaced by ``***@`` in every URL in ``text``."""
    return _USERINFO.sub(r"\1***@", text) if "@" in text else text


def url_problem(url: str, schemes: tuple[str, ...] = ("http", "https")) -> str | None:
    """Why ``url`` (already canonical) breaks the policy without looking at DNS: a scheme outside ``schemes``,
    credentials, no host, or a malformed authority. None when it passes."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (raises ValueError on a bad port)
    except ValueError as exc:
        return f"malformed URL ({exc})"
    scheme = parts.scheme.lower()
    if scheme not in schemes:
        return f"scheme {scheme or '(none)'!r} is not {' or '.join(schemes)}"
    if scheme == "mailto":
        return None if parts.path and "@" in parts.path else "mailto without an address"
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return "credentials in the URL"
    if not (parts.hostname or "").rstrip("."):
        return "no host"
    return None


def _is_ip_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def system_resolver(host: str, port: int) -> list[str]:
    return sorted({info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)})


def address_problem(address: IPAddress) -> str | None:
    """Why an address may not be fetched, or None for a public unicast address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        problem = address_problem(address.ipv4_mapped)
        return f"IPv4-mapped {problem}" if problem else None
    for name in ("loopback", "link_local", "multicast", "private", "reserved", "unspecified"):
        if getattr(address, f"is_{name}"):
            return f"{name.replace('_', '-')} address {address}"
    if not address.is_global:  # e.g. 100.64.0.0/10 shared address space
        return f"non-global address {address}"
    return None


def _parse_host_list(entries: Iterable[str]) -> tuple[set[str], list[ipaddress._BaseNetwork]]:
    names, networks = set(), []
    for entry in entries:
        entry = str(entry).strip().lower().strip("[]")
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            names.add(entry.rstrip("."))
    return names, networks


@dataclass
class FetchGuard:
    """Only http(s), no credentials, no denied host, and no address that is not public unless allowed.

    ``allowed_private_hosts`` and ``denied_hosts`` hold host names (a name also covers its subdomains for the
    deny list), IP addresses or networks (``127.0.0.0/8``). ``resolver_overrides`` maps a host name to its
    addresses in place of DNS, for tests."""

    allowed_private_hosts: Iterable[str] = ()
    denied_hosts: Iterable[str] = ()
    resolver_overrides: Mapping[str, str | list[str]] = field(default_factory=dict)
    resolver: Resolver = system_resolver

    def __post_init__(self):
        self._allowed_names, self._allowed_networks = _parse_host_list(self.allowed_private_hosts)
        self._denied_names, self._denied_networks = _parse_host_list(self.denied_hosts)
        self._overrides = {k.lower(): [v] if isinstance(v, str) else list(v) for k, v in self.resolver_overrides.items()}

    def check(self, url: str) -> list[str]:
        """Return the addresses the host resolves to, or raise UnsafeURL naming the reason."""
        host, port = self._static_check(url)
        addresses = self._resolve(url, host, port)
        for text in addresses:
            self.check_address(url, host, text)
        return addresses

    def check_static(self, url: str) -> None:
        """Every rule that needs no DNS (scheme, credentials, denied names, IP literals and ``localhost``), for
        URLs that are stored rather than fetched (extracted job and apply URLs). Raises UnsafeURL."""
        host, _ = self._static_check(url)
        if host == "localhost" or host.endswith(".localhost"):  # RFC 6761: always loopback
            if host not in self._allowed_names and not any(n.version == 4 and ipaddress.ip_address("127.0.0.1") in n
                                                           for n in self._allowed_networks):
                raise UnsafeURL(url, f"host {host} is a loopback name")
        if _is_ip_literal(host):
            self.check_address(url, host, host)

    def _static_check(self, url: str) -> tuple[str, int]:
        problem = url_problem(url)
        if problem:
            raise UnsafeURL(url, problem)
        parts = urlsplit(url)
        host = (parts.hostname or "").rstrip(".")
        if self._is_denied_name(host):
            raise UnsafeURL(url, f"host {host} is denied")
        return host, parts.port or (443 if parts.scheme.lower() == "https" else 80)

    def check_host(self, host: str, port: int, target: str) -> list[str]:
        """The same rules for a server that is not fetched over HTTP (an IMAP mailbox): return the addresses
        ``host`` may be reached at, or raise UnsafeURL for ``target`` (how the operator names that server)."""
        host = host.strip("[]").rstrip(".").lower()
        if not host:
            raise UnsafeURL(target, "no host")
        if self._is_denied_name(host):
            raise UnsafeURL(target, f"host {host} is denied")
        addresses = self._resolve(target, host, port)
        for text in addresses:
            self.check_address(target, host, text)
        return addresses

    def check_address(self, url: str, host: str, text: str) -> None:
        """Raise UnsafeURL when ``host`` (reached through ``url``) may not be fetched at address ``text``."""
        address = ipaddress.ip_address(text.split("%", 1)[0])
        if any(address in net for net in self._denied_networks):
            raise UnsafeURL(url, f"host {host} resolves to denied address {address}")
        problem = address_problem(address)
        if problem and host not in self._allowed_names and not any(address in net for net in self._allowed_networks):
            verb = "is" if _is_ip_literal(host) else "resolves to"
            raise UnsafeURL(url, f"host {host} {verb} a {problem}")

    def override(self, host: str) -> list[str] | None:
        return self._overrides.get(host.lower().rstrip("."))

    def _is_denied_name(self, host: str) -> bool:
        return any(host == name or host.endswith("." + name) for name in self._denied_names)

    def _resolve(self, url: str, host: str, port: int) -> list[str]:
        try:
            return [str(ipaddress.ip_address(host))]
        except ValueError:
            pass
        if host in self._overrides:  # an empty list: a name that does not resolve (tests)
            addresses = self._overrides[host]
        else:
            try:
                addresses = self.resolver(host, port)
            except (OSError, UnicodeError) as exc:
                raise UnresolvableHost(url, f"cannot resolve {host} ({exc})") from None
        if not addresses:
            raise UnresolvableHost(url, f"{host} resolves to no address")
        return addresses

    @classmethod
    def from_settings(cls, settings) -> "FetchGuard":
        return cls(allowed_private_hosts=settings.getlist("FETCH_ALLOWED_PRIVATE_HOSTS"),
                   denied_hosts=settings.getlist("FETCH_DENIED_HOSTS"),
                   resolver_overrides=settings.getdict("FETCH_RESOLVER_OVERRIDES"))
