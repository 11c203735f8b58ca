"""Link resolution: every link and media URL absolute against the page URL and any usable <base href>."""

from __future__ import annotations

from urllib.parse import urldefrag, urljoin, urlsplit

from gigflow.safety.guard import url_problem

URL_ATTRIBUTES = ("href", "src", "action", "poster", "data-src", "cite", "formaction")
_URL_ATTRIBUTE_SET = frozenset(URL_ATTRIBUTES + ("srcset",))
# The elements the HTML standard gives URL attributes (plus lazy-loading data-src holders). Filtering by tag in
# C and reading attributes only there is several times cheaper than visiting every element from Python.
URL_ELEMENTS = ("a", "area", "link", "img", "image", "iframe", "frame", "embed", "object", "source", "track", "audio",
                "video", "script", "input", "button", "form", "blockquote", "q", "del", "ins", "picture")
# Schemes a reader cannot follow from stored Markdown: left as written, never joined onto the base.
_OPAQUE_SCHEMES = ("javascript:", "data:", "mailto:", "tel:", "about:", "blob:")
# The WHATWG URL parser strips leading and trailing C0 controls and spaces, then removes every ASCII tab and
# newline anywhere in the input: an href written across lines is one link in a browser, so it is one link here.
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_AND_NEWLINE = str.maketrans("", "", "\t\n\r")


def clean_href(value: str) -> str:
    """An attribute URL as a browser reads it before parsing (WHATWG URL: strip C0/space, drop tabs/newlines)."""
    if value and value[0] > " " and value[-1] > " " and "\t" not in value and "\n" not in value and "\r" not in value:
        return value  # the common case, without translate's per-character dictionary lookups
    return value.strip(_C0_AND_SPACE).translate(_TAB_AND_NEWLINE)


def usable_base(root, page_url: str) -> str:
    """The URL relative links resolve against.

    Browsers use the first <base href>; we use the first one that resolves (against the page URL, so a
    relative base works) to http(s). A base outside http(s) (javascript:, data:, file:) or an empty one is
    skipped, so a hostile or broken base never points links off the web.
    """
    for base in root.iter("base"):
        href = clean_href(base.get("href") or "")
        if not href:
            continue
        try:
            resolved = urljoin(page_url, href)
        except ValueError:  # e.g. an invalid IPv6 literal
            continue
        if urlsplit(resolved).scheme in ("http", "https"):
            return resolved
    return page_url


def resolve_url(value: str, base_url: str, page_url: str, origin: str | None = None) -> str | None:
    """One URL made absolute; None when it is left as written. ``origin`` (scheme://host of the base) enables a
    fast path for the common root-relative link; urljoin handles everything else."""
    value = clean_href(value)
    if not value:
        return None
    if value.startswith("#"):
        # An in-page fragment keeps pointing at the current page, whatever the base says.
        return urldefrag(page_url).url + value
    if value.startswith(("https://", "http://")):
        return value
    if origin and value.startswith("/") and not value.startswith("//") and "/." not in value:
        return origin + value
    if value.lower().startswith(_OPAQUE_SCHEMES):
        return None
    try:
        return urljoin(base_url, value)
    except ValueError:
        return None


def http_origin(base_url: str) -> str | None:
    """scheme://host[:port] of an http(s) base URL (resolve_url's fast path for root-relative links), else None."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None


def resolve_links(root, base_url: str, page_url: str) -> int:
    """Make every link and media URL absolute (srcset candidates too). Returns how many changed."""
    count = 0
    origin = http_origin(base_url)
    srcsets = []
    for el in root.iter(*URL_ELEMENTS):
        for attr in el.keys():
            if attr not in _URL_ATTRIBUTE_SET:
                continue
            if attr == "srcset":
                srcsets.append(el)
                continue
            value = el.get(attr)
            resolved = resolve_url(value, base_url, page_url, origin)
            if resolved is None:  # left as written, but as a browser reads it (mailto: across lines, ...)
                resolved = clean_href(value)
            if resolved != value:
                el.set(attr, resolved)
                count += 1
    for el in srcsets:
        candidates = []
        for candidate in el.get("srcset").split(","):
            words = candidate.strip(_C0_AND_SPACE).split(None, 1)
            if not words:
                continue
            words[0] = resolve_url(words[0], base_url, page_url, origin) or words[0]
            candidates.append(" ".join(words))
        el.set("srcset", ", ".join(candidates))
        count += 1
    return count


def listed_link(href: str) -> str | None:
    """The href as the document's links list holds it: an absolute http(s) URL without userinfo, else None."""
    href = href.strip()
    if href.startswith(("http://", "https://")) and ("@" not in href or url_problem(href) is None):
        return href
    return None


def same_page(url: str, page_url: str) -> bool:
    """True when url is the current page (fragments and a trailing slash ignored)."""
    return urldefrag(url).url.rstrip("/") == urldefrag(page_url).url.rstrip("/")
