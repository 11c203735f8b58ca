"""The URL guard: every URL and every redirect hop is checked before it is requested (SSRF defence)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]


class UnsafeURL(Exception):
    """A URL the guard refuses; ``reason`` says why in words an operator can act on."""

    def __init__(self, url: str, reason: str):
        super().__init__(f"refused {url}: {reason}")
        self.url = url
        self.reason = reason


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
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise UnsafeURL(url, f"malformed URL ({exc})") from None
        if parts.scheme not in ("http", "https"):
            raise UnsafeURL(url, f"scheme {parts.scheme or '(none)'!r} is not http or https")
        if parts.username is not None or parts.password is not None:
            raise UnsafeURL(url, "credentials in the URL")
        host = (parts.hostname or "").rstrip(".")
        if not host:
            raise UnsafeURL(url, "no host")
        if self._is_denied_name(host):
            raise UnsafeURL(url, f"host {host} is denied")
        addresses = self._resolve(url, host, port or (443 if parts.scheme == "https" else 80))
        for text in addresses:
            self.check_address(url, host, text)
        return addresses

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
        if host in self._overrides:
            return self._overrides[host]
        try:
            addresses = self.resolver(host, port)
        except (OSError, UnicodeError) as exc:
            raise UnsafeURL(url, f"cannot resolve {host} ({exc})") from None
        if not addresses:
            raise UnsafeURL(url, f"{host} resolves to no address")
        return addresses

    @classmethod
    def from_settings(cls, settings) -> "FetchGuard":
        return cls(allowed_private_hosts=settings.getlist("FETCH_ALLOWED_PRIVATE_HOSTS"),
                   denied_hosts=settings.getlist("FETCH_DENIED_HOSTS"),
                   resolver_overrides=settings.getdict("FETCH_RESOLVER_OVERRIDES"))
