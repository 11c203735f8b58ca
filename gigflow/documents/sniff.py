"""The one format sniffer: preparation (DocumentPreparer) and the adapters' chain (content_format) both ask it."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from gigflow.documents.types import DocumentFormat

_CONTENT_TYPES: dict[str, DocumentFormat] = {
    "text/html": "html", "application/xhtml+xml": "html",
    "text/plain": "text",
    "text/markdown": "markdown", "text/x-markdown": "markdown",
    "application/pdf": "pdf", "application/x-pdf": "pdf",
    "application/json": "json", "text/json": "json", "application/ld+json": "json",
    "message/rfc822": "email",
    "application/xml": "xml", "text/xml": "xml", "application/rss+xml": "xml", "application/atom+xml": "xml",
}
_EXTENSIONS: dict[str, DocumentFormat] = {
    ".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown", ".txt": "text",
    ".pdf": "pdf", ".json": "json", ".xml": "xml", ".rss": "xml", ".atom": "xml", ".eml": "email",
}
_HTML_START = re.compile(rb"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S)
_HTML_TAGS = re.compile(rb"<(?:html|head|body|div|p|a|table|h[1-6]|ul|section|article|main|span)\b[^>]*>", re.I)
_XML_ROOT = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:rss|feed|urlset|sitemapindex|rdf:RDF|jobs|source)\b",
                       re.I | re.S)
_XML_DECL = re.compile(rb"^\s*<\?xml\b", re.I)
_MD_MARKERS = re.compile(rb"^(?:#{1,6} |[-*] |\d+\. |\[[^\]]+\]\([^)]+\))", re.M)
_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")


def _head(body: bytes | str, size: int = 2048) -> bytes:
    head = body[:size].encode("utf-8", "replace") if isinstance(body, str) else body[:size]
    for bom in _BOMS:
        if head.startswith(bom):
            return head[len(bom):]
    return head


def _media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def sniff_format(body: bytes | str, url: str = "", content_type: str | None = None) -> DocumentFormat:
    """The document's format. Unmistakable bytes win over the header (servers mislabel: a PDF sent as
    text/html, a JSON API sent as text/plain); then the header; then weaker byte signs; then the URL's
    extension; plain text last."""
    head = _head(body)
    stripped = head.lstrip()
    if stripped.startswith(b"%PDF-"):
        return "pdf"
    if _HTML_START.match(head):
        return "html"
    if _XML_ROOT.match(head):
        return "xml"
    declared = _CONTENT_TYPES.get(_media_type(content_type))
    if declared is None and _media_type(content_type).endswith("+json"):
        declared = "json"
    if declared is None and _media_type(content_type).endswith("+xml"):
        declared = "xml"
    if declared in ("html", "pdf", "markdown", "json", "email"):
        return declared  # a declared JSON payload is parsed by its adapter, not twice here
    if stripped[:1] in (b"{", b"[") and _parses_as_json(body):
        return "json"
    if declared == "xml":
        return declared
    if _XML_DECL.match(head):
        return "html" if _HTML_TAGS.search(head) and b"<html" in head.lower() else "xml"
    if _HTML_TAGS.search(head):
        return "html"
    by_extension = _EXTENSIONS.get(_extension(url))
    if by_extension in ("markdown", "text") or (by_extension is None and declared is None and _MD_MARKERS.search(head)):
        return by_extension or "markdown"
    return by_extension or declared or "text"


def _extension(url: str) -> str:
    try:
        path = urlsplit(url or "").path.lower()
    except ValueError:  # a malformed URL (an unclosed IPv6 bracket) has no extension to go by
        return ""
    dot = path.rfind(".")
    return path[dot:] if dot > path.rfind("/") else ""


def _parses_as_json(body: bytes | str) -> bool:
    try:
        json.loads(body)
        return True
    except RecursionError:  # nested too deeply to read, yet JSON: the adapters report it
        return True
    except (ValueError, UnicodeDecodeError):
        return False
