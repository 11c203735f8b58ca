"""Small pure helpers every adapter shares: bounded JSON, HTML-to-text, bounded raw payloads, hosts."""

from __future__ import annotations

import html
import ipaddress
import json
from typing import Any
from urllib.parse import urlsplit

from lxml import etree
from lxml import html as lxml_html

from gigflow.safety.guard import address_problem

# A description longer than this is cut before parsing: a 10 MB field must not cost a crawl its memory.
MAX_DESCRIPTION_INPUT = 500_000
MAX_DESCRIPTION_TEXT = 20_000
MAX_RAW_STRING = 300
MAX_RAW_ITEMS = 40
MAX_JSON_BYTES = 50_000_000


class PayloadError(ValueError):
    """The content is not a payload this adapter can read; the message says why."""


def host_of(url: str | None) -> str:
    try:
        return (urlsplit(url or "").hostname or "").lower()
    except ValueError:
        return ""


def host_matches(url: str | None, *suffixes: str) -> bool:
    """The URL's host is one of `suffixes` or a subdomain of one ("greenhouse.io" matches boards.greenhouse.io)."""
    host = host_of(url)
    return any(host == s or host.endswith("." + s) for s in suffixes)


def is_http_url(value: str | None) -> bool:
    return bool(value) and urlsplit(value).scheme.lower() in ("http", "https") and bool(urlsplit(value).hostname)


def as_bytes(content: bytes | str) -> bytes:
    return content.encode("utf-8", "replace") if isinstance(content, str) else content


def load_json(content: bytes | str) -> Any:
    """Parse a JSON payload; too large, unreadable or too deeply nested content raises PayloadError."""
    data = as_bytes(content)
    if len(data) > MAX_JSON_BYTES:
        raise PayloadError(f"JSON payload of {len(data)} bytes exceeds {MAX_JSON_BYTES}")
    try:
        return json.loads(data.decode("utf-8-sig", "replace"))
    except RecursionError:
        raise PayloadError("JSON payload nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise PayloadError(f"unreadable JSON: {exc}") from None


def clean_text(value: Any, limit: int = 2000) -> str | None:
    """A short field as one line: entities decoded once, whitespace collapsed, markup-free."""
    if value is None or isinstance(value, (dict, list)):
        return None
    text = " ".join(html.unescape(str(value)).split())
    if "<" in text and ">" in text:
        text = html_to_text(text) or ""
    return text[:limit] or None


def html_to_text(markup: Any, *, entity_encoded: bool = False) -> str | None:
    """Visible text of an HTML fragment. Scripts and styles are dropped; the input is bounded first.

    `entity_encoded` is for payloads (Greenhouse) that ship HTML as `&lt;p&gt;`: decoded exactly once, so a
    literal `&amp;lt;` in the text stays `&lt;`.
    """
    if not markup or not isinstance(markup, str):
        return None
    text = markup[:MAX_DESCRIPTION_INPUT]
    if entity_encoded:
        text = html.unescape(text)
    try:
        root = lxml_html.fragment_fromstring(text, create_parent="div",
                                             parser=lxml_html.HTMLParser(recover=True, huge_tree=False))
    except (etree.ParserError, ValueError):
        return " ".join(text.split())[:MAX_DESCRIPTION_TEXT] or None
    etree.strip_elements(root, "script", "style", "noscript", "template", with_tail=False)
    for br in root.iter("br", "p", "li", "div", "h1", "h2", "h3", "h4", "tr"):
        br.tail = "\n" + (br.tail or "")
    lines = (" ".join(line.split()) for line in root.text_content().splitlines())
    result = "\n".join(line for line in lines if line)
    return result[:MAX_DESCRIPTION_TEXT] or None


def bounded_raw(value: Any, depth: int = 0) -> Any:
    """A copy of a payload small enough to keep for debugging: short strings, few items, shallow."""
    if depth > 4:
        return "…"
    if isinstance(value, dict):
        return {str(k): bounded_raw(v, depth + 1) for k, v in list(value.items())[:MAX_RAW_ITEMS]}
    if isinstance(value, list):
        return [bounded_raw(v, depth + 1) for v in value[:10]]
    if isinstance(value, str) and len(value) > MAX_RAW_STRING:
        return value[:MAX_RAW_STRING] + "…"
    return value


def first(*values: Any) -> Any:
    return next((v for v in values if v not in (None, "", [], {})), None)


def join_place(*parts: Any) -> str | None:
    seen: list[str] = []
    for part in parts:
        text = clean_text(part)
        if text and text.lower() not in (s.lower() for s in seen):
            seen.append(text)
    return ", ".join(seen) or None


# Hosts of a development build: a static site generated on a laptop states "http://localhost:4000" as every page's
# og:url.
_DEVELOPMENT_SUFFIXES = (".localhost", ".local", ".test", ".invalid", ".internal")


def _development_host(host: str) -> bool:
    if host == "localhost" or host.endswith(_DEVELOPMENT_SUFFIXES):
        return True
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return address_problem(address) is not None  # the fetch guard's reading of a non-public address


def names_this_page(stated: str, page_url: str | None) -> bool:
    """Whether a canonical link or og:url can be this page's address: not a development server's (unless the page
    is served from that host), and not the site's home page for a page deeper in the site (a CMS or theme that
    states its root on every page). Either would give every job of the site one URL, and one job."""
    if not is_http_url(page_url or ""):
        return True  # nothing better to name it by
    if development_host_elsewhere(stated, page_url):
        return False
    if url_host(stated) is None:
        return False
    theirs, mine = urlsplit(stated), urlsplit(page_url or "")
    return bool(theirs.path.strip("/") or theirs.query) or not mine.path.strip("/")


def development_host_elsewhere(stated: str, page_url: str | None) -> bool:
    """Whether ``stated`` is on a development build's host ("http://localhost:4000/jobs/x") that the page itself
    was not served from."""
    return (url_host(stated) or "") != (url_host(page_url or "") or "") and _development_host(url_host(stated) or "")


def url_host(url: str) -> str | None:
    """The URL's host in lower case; None for a URL that does not parse ("http://[bad", a hostile page's)."""
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return None
