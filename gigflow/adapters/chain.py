"""Parser order lives here and nowhere else.

HTML: JSON-LD JobPosting, then the specialised adapter named by the source's parser key, then the generic
fallbacks. JSON: the ATS adapter named by the key or recognised by host and markers. XML: the RSS/Atom
adapter (never the generic HTML parser). E-mail (`message/rfc822`, `.eml`): the e-mail adapter.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType

from gigflow.adapters.ats import ADAPTERS as ATS_ADAPTERS
from gigflow.adapters.common import as_bytes
from gigflow.adapters.dates import normalise_job_dates
from gigflow.adapters.email_alert import EmailAdapter
from gigflow.adapters.feed import FeedAdapter, is_json_feed
from gigflow.adapters.generic.adapter import GenericHtmlAdapter
from gigflow.adapters.generic.page import read_page
from gigflow.adapters.job_facts import add_facts
from gigflow.adapters.jsonld import JsonLdAdapter
from gigflow.adapters.reconcile import reconcile
from gigflow.adapters.types import ExtractionContext, ExtractionResult, SourceAdapter
from gigflow.adapters.url_policy import apply_url_policy, without_control_characters
from gigflow.documents.sniff import sniff_format
from gigflow.safety.guard import FetchGuard

JSONLD = JsonLdAdapter()
FEED = FeedAdapter()
GENERIC = GenericHtmlAdapter()
# The one table of which adapter a parser key picks (the ATS providers', then the feed's), read-only: nothing
# adds to it at import or later. Keys outside it: "email[:...]" and "route:NAME" (_specialised).
SPECIALISED: Mapping[str, SourceAdapter] = MappingProxyType(
    {adapter.parser_key: adapter for adapter in (*ATS_ADAPTERS.values(), FEED)})
FALLBACKS: tuple[SourceAdapter, ...] = (GENERIC,)  # after the specialised adapter, in this order


def _specialised(parser_key: str | None) -> SourceAdapter | None:
    if not parser_key:
        return None
    if parser_key in SPECIALISED:
        return SPECIALISED[parser_key]
    if parser_key == "email" or parser_key.startswith("email:"):
        return EmailAdapter(parser_key.partition(":")[2] or None)
    if parser_key.startswith("route:"):
        from gigflow.adapters.routes import route_adapter  # route tables load on first use

        return route_adapter(parser_key.partition(":")[2])
    return None


# HTML adapters after JSON-LD read at most this much of a body (EXTRACTION_MAX_HTML_BYTES): their trees cost
# about 20x the HTML, and a vacancy's facts sit near its top. JSON-LD, a byte scan, always reads it all.
DEFAULT_MAX_HTML_BYTES = 2 * 1024 * 1024


def extract_html(content: bytes | str, *, url: str, parser_key: str | None = None,
                 context: ExtractionContext | None = None,
                 max_html_bytes: int | None = DEFAULT_MAX_HTML_BYTES) -> ExtractionResult:
    """JSON-LD JobPosting, then the source's specialised adapter, then the generic fallbacks."""
    context = context or ExtractionContext()
    warnings: list[str] = []
    full = content
    if max_html_bytes and len(content) > max_html_bytes:
        content = content[:max_html_bytes]
        warnings.append(f"html: body is {len(full) / 1e6:.1f} MB, over EXTRACTION_MAX_HTML_BYTES "
                        f"({max_html_bytes / 1e6:.1f} MB): adapters after JSON-LD read only its start")
    chain: list[SourceAdapter] = [JSONLD]
    try:
        specialised = _specialised(parser_key)
    except KeyError as exc:
        specialised, _ = None, warnings.append(str(exc.args[0]))
    if specialised is not None:
        chain.append(specialised)
    elif parser_key and parser_key not in (JSONLD.parser_key, "generic-html") and not warnings:
        warnings.append(f"unknown parser key {parser_key!r}; using the generic chain")
    if not getattr(specialised, "fail_closed", False):
        chain.extend(FALLBACKS)  # a fail-closed route that takes nothing must not be second-guessed by guesswork
    for adapter in chain:
        if adapter is not JSONLD and adapter is not specialised and not adapter.supports(url, content):
            continue
        # JSON-LD's facts wait for the visible page's reading (its salary may replace JSON-LD's): added once.
        result = _safely(adapter, full if adapter is JSONLD else content, url, context, facts=adapter is not JSONLD)
        warnings.extend(result.warnings)
        if result.jobs:
            if adapter is JSONLD:
                if result.kind == "detail":
                    result = _against_visible_page(result, content, url, context)
                for job in result.jobs:
                    add_facts(job)
            return result.model_copy(update={"warnings": warnings})
    return ExtractionResult.empty(warning=None).model_copy(update={"warnings": warnings + ["no job found"]})


def _against_visible_page(result: ExtractionResult, content, url: str, context: ExtractionContext):
    """JSON-LD checked against what the page shows (apply link, salary, date): see `reconcile`."""
    try:
        page, _ = read_page(content, url, context)
        return reconcile(result, page, url=url, fetched_at=context.fetched_at)
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError, UnicodeError):
        return result


def content_format(content: bytes | str, *, url: str, content_type: str | None = None) -> str:
    """Which chain reads the content: html, json, xml or email. The format is the one sniffer's
    (gigflow.documents.sniff, as preparation sees it); mail is told by its media type, suffix or headers, and every
    other document format (HTML, text, Markdown, PDF) goes to the HTML chain."""
    media = (content_type or "").split(";")[0].strip().lower()
    if media == "message/rfc822" or url.lower().split("?")[0].endswith(".eml"):
        return "email"
    fmt = sniff_format(content, url, content_type)
    if fmt in ("json", "xml", "email"):
        return fmt
    if fmt == "text" and EmailAdapter().supports(url, content):
        return "email"
    if fmt in ("text", "markdown") and as_bytes(content)[:64].lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"["):
        return "json"  # JSON-shaped but unreadable: the JSON adapters say why
    return "html"


def extract(content: bytes, *, url: str, content_type: str | None = None, parser_key: str | None = None,
            company: str | None = None, fetched_at: datetime | None = None,
            url_guard: FetchGuard | None = None,
            max_html_bytes: int | None = DEFAULT_MAX_HTML_BYTES) -> ExtractionResult:
    """The one entry point spiders call: picks the chain by content format (see the module docstring).

    `company` is the source's configured company (an employer of last resort, with its own evidence method);
    `fetched_at` is when the content was fetched (relative dates are read against it). Dates come back as ISO 8601
    from every adapter. With ``url_guard`` (the crawl's fetch guard), job and apply URLs it would refuse are
    dropped as the final step.
    """
    context = ExtractionContext(company=company, fetched_at=fetched_at)
    result = without_control_characters(_extract(content, url=url, content_type=content_type,
                                                 parser_key=parser_key, context=context,
                                                 max_html_bytes=max_html_bytes))
    return apply_url_policy(result, url_guard) if url_guard is not None else result


def _extract(content: bytes, *, url: str, content_type: str | None, parser_key: str | None,
             context: ExtractionContext, max_html_bytes: int | None) -> ExtractionResult:
    kind = content_format(content, url=url, content_type=content_type)
    if kind == "html":
        return extract_html(content, url=url, parser_key=parser_key, context=context,
                            max_html_bytes=max_html_bytes)
    if kind == "email":
        key = parser_key if parser_key and parser_key.startswith("email") else "email"
        return _safely(_specialised(key), content, url, context)
    if kind == "xml":
        if parser_key and parser_key.startswith("route:"):
            try:
                return _safely(_specialised(parser_key), content, url, context)
            except KeyError as exc:  # an unknown route is a warning, as it is for HTML
                return ExtractionResult.empty(parser_key, "0", str(exc.args[0]))
        personio = ATS_ADAPTERS["personio"]
        if parser_key == personio.parser_key or personio.is_payload(as_bytes(content)[:4000]):
            return _safely(personio, content, url, context)  # Personio's XML feed is an ATS payload, not RSS
        result = _safely(FEED, content, url, context)
        if not result.jobs and not FEED.supports(url, content):
            result.warnings.append("xml: not an RSS or Atom feed; the generic HTML parser does not read XML")
        return result
    return _extract_json(content, url=url, parser_key=parser_key, context=context)


def _extract_json(content: bytes, *, url: str, parser_key: str | None, context: ExtractionContext) -> ExtractionResult:
    adapter = ATS_ADAPTERS.get(parser_key or "")
    # A JSON Feed is read as a feed unless the source names an ATS whose public feed it is (Teamtailor).
    if parser_key == FEED.parser_key or (adapter is None and is_json_feed(content)):
        return _safely(FEED, content, url, context)
    if adapter is None:
        adapter = next((a for a in ATS_ADAPTERS.values() if a.supports(url, content)), None)
    if adapter is None:
        return ExtractionResult.empty(warning=f"json: no ATS adapter for parser key {parser_key!r} at {url}")
    return _safely(adapter, content, url, context)


def _safely(adapter: SourceAdapter, content: bytes | str, url: str,
            context: ExtractionContext | None = None, *, facts: bool = True) -> ExtractionResult:
    """A malformed page never crashes a crawl: an adapter error becomes a warning naming the adapter.

    Every adapter's dates leave here as ISO 8601 (feeds and ATS payloads included), relative ones read against
    the fetch time; the source's own text stays in `raw`. Facts (`add_facts`) are added here unless `facts` is False
    (the caller adds them once it has finished with the jobs).
    """
    context = context or ExtractionContext()
    try:
        if getattr(adapter, "uses_context", False):
            result = adapter.extract(content, url=url, context=context)
        else:
            result = adapter.extract(content, url=url)
        for job in result.jobs:
            normalise_job_dates(job, fetched_at=context.fetched_at)
            if facts:
                add_facts(job)
        return result
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError, UnicodeError) as exc:
        return ExtractionResult(parser_key=adapter.parser_key, parser_version=adapter.parser_version,
                                warnings=[f"{adapter.parser_key}: failed on {url}: {exc.__class__.__name__}: "
                                          f"{str(exc)[:300]}"])
