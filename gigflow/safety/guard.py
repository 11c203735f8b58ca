"""The URL guard: every URL and every redirect hop is checked before it is requested (SSRF defence)."""

from __future__ import annotations

import ipaddress
import re
import socket
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping
from urllib.parse import unquote, urlsplit

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


# A secret named in a text: a header (Authorization: ..., 'Cookie': '...'), a key=value pair or a query parameter.
_SECRET_NAMES = (r"(?:proxy-)?authorization|(?:set-)?cookie|api[_-]?key|apikey|password|passwd|secret|"
                 r"access[_-]?token|refresh[_-]?token|(?:gigflow_)?ui_token|x-api-key|x-csrf-token")
_QUOTED_SECRET = re.compile(rf"(?i)([\"']?\b(?:{_SECRET_NAMES})[\"']?\s*[:=]\s*)([\"'])(.*?)\2")
_BARE_SECRET = re.compile(rf"(?i)(\b(?:{_SECRET_NAMES})\s*[:=]\s*(?:(?:bearer|basic|digest|token)\s+)?)(?![\"'])"
                          r"([^\s,;&}\]]+)")
_COOKIE_HEADER = re.compile(r"(?im)(\b(?:set-)?cookie\s*:\s*)(?![\"'])[^\r\n\"']+")
_TOKEN_PARAMETER = re.compile(r"(?i)([?&;](?:token|access_token|api_key|apikey|key|password|secret)=)[^&;#\s\"']+")


def redact_secrets(text: str) -> str:
    """``redact_url`` plus every header, key=value pair and query parameter that names a secret: its value
    becomes ``***`` (``'Authorization': 'Bearer abc'`` -> ``'Authorization': '***'``)."""
    text = redact_url(text)
    lowered = text.lower()
    if not any(word in lowered for word in ("auth", "cookie", "key", "pass", "secret", "token")):
        return text
    text = _QUOTED_SECRET.sub(lambda m: f"{m.group(1)}{m.group(2)}***{m.group(2)}", text)
    text = _COOKIE_HEADER.sub(r"\1***", text)
    text = _BARE_SECRET.sub(r"\1***", text)
    return _TOKEN_PARAMETER.sub(r"\1***", text)


# Schemes whose target is a phone number or a messenger address rather than a host: they open an application
# and run nothing in a browser (stored Markdown may link to them, see documents.safe_text).
CONTACT_SCHEMES = ("tel", "sms", "tg", "whatsapp")


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
    if scheme in CONTACT_SCHEMES:  # a number or a messenger's address: no host to judge
        return None if (parts.netloc or parts.path).strip("/") else f"{scheme} without an address"
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return "credentials in the URL"
    if not (parts.hostname or "").rstrip("."):
        return "no host"
    return None


def whatwg_host(host: str) -> str:
    """The host as a browser reads it (WHATWG URL host parsing), so the policy judges what a browser would reach:
    percent-decoded, mapped by UTS #46 (fullwidth digits, the ideographic full stop U+3002 -> "."), lowercased,
    each non-ASCII label IDNA-encoded (``bücher.test`` -> ``xn--bcher-kva.test``), one trailing dot dropped, and
    a name that ends in a number read as IPv4 the way browsers do: ``0x7f000001``, ``2130706433``, ``127.1`` and
    ``0177.0.0.1`` are all ``127.0.0.1``. An IPv6 literal comes back without brackets."""
    host = unquote(host or "").strip()
    if host.startswith("[") and host.endswith("]") or ":" in host:
        return host.strip("[]").lower()
    try:
        import idna

        host = idna.uts46_remap(host, std3_rules=False, transitional=False)
    except Exception:  # an unmappable name is judged as written (the resolver will refuse it)
        host = host.lower()
    labels = host.split(".")
    if len(labels) > 1 and labels[-1] == "":
        labels.pop()
    ascii_labels = []
    for label in labels:
        if label.isascii():
            ascii_labels.append(label)
            continue
        try:
            ascii_labels.append(idna.encode(label, uts46=False).decode("ascii"))
        except Exception:
            ascii_labels.append(label)
    host = ".".join(ascii_labels)
    ipv4 = _whatwg_ipv4(ascii_labels)
    return ipv4 if ipv4 is not None else host


def _ipv4_number(part: str) -> int | None:
    if not part:
        return None
    base = 10
    if part[:2] in ("0x", "0X"):
        part, base = part[2:], 16
    elif len(part) > 1 and part[0] == "0":
        part, base = part[1:], 8
    if part == "":
        return 0
    try:
        return int(part, base) if part.isascii() and part.isalnum() else None
    except ValueError:
        return None


def _whatwg_ipv4(labels: list[str]) -> str | None:
    """WHATWG's IPv4 parser, applied when the last label is a number (decimal, 0x hex or 0-prefixed octal)."""
    if not labels or _ipv4_number(labels[-1]) is None or len(labels) > 4:
        return None
    numbers = [_ipv4_number(label) for label in labels]
    if any(n is None for n in numbers) or any(n > 255 for n in numbers[:-1]):
        return None
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        return None
    value = numbers[-1]
    for index, number in enumerate(numbers[:-1]):
        value += number * 256 ** (3 - index)
    return str(ipaddress.IPv4Address(value))


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
            name = whatwg_host(entry)
            try:
                networks.append(ipaddress.ip_network(name, strict=False))
            except ValueError:
                names.add(name)
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
        self._overrides = {whatwg_host(k): [v] if isinstance(v, str) else list(v)
                           for k, v in self.resolver_overrides.items()}

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
        host = whatwg_host(parts.hostname or "")
        if self._is_denied_name(host):
            raise UnsafeURL(url, f"host {host} is denied")
        return host, parts.port or (443 if parts.scheme.lower() == "https" else 80)

    def check_host(self, host: str, port: int, target: str) -> list[str]:
        """The same rules for a server that is not fetched over HTTP (an IMAP mailbox): return the addresses
        ``host`` may be reached at, or raise UnsafeURL for ``target`` (how the operator names that server)."""
        host = whatwg_host(host)
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
        if problem and whatwg_host(host) not in self._allowed_names and \
                not any(address in net for net in self._allowed_networks):
            verb = "is" if _is_ip_literal(host) else "resolves to"
            raise UnsafeURL(url, f"host {host} {verb} a {problem}")

    def override(self, host: str) -> list[str] | None:
        return self._overrides.get(whatwg_host(host))

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
