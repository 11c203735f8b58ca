"""The non-HTML formats: plain text, Markdown, PDF (text layer) and JSON/XML payloads.

Each returns the same PreparedDocument contract as HtmlFormat. JSON and XML payloads are for the adapters,
which read the raw body unchanged; their Markdown is only a readable code block.
"""

from __future__ import annotations

import io
import json
import re
from urllib.parse import urljoin

from w3lib.encoding import html_to_unicode

from gigflow.documents.markdown import tidy
from gigflow.documents.markdown_source import clean_markdown_page
from gigflow.documents.safe_text import escape_text
from gigflow.documents.types import PreparationReport, PreparedDocument

_URL_IN_TEXT = re.compile(r"https?://[^\s<>\"')\]]+")


def decode_text(body: bytes | str, content_type: str | None) -> str:
    if isinstance(body, str):
        return body
    return html_to_unicode(content_type, body)[1].replace("\x00", "")


_NON_SPACE = re.compile(r"\S")
# What str.splitlines() ends a line at.
_LINE_BREAK = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_SPACE_RUN = re.compile(r"\s+")


def _first_line(text: str) -> str | None:
    """The first non-blank line, its whitespace collapsed: found by search, not by splitting the whole text into
    lines and the line into words (a 15 MB single line became millions of word strings)."""
    first = _NON_SPACE.search(text)
    if first is None:
        return None
    end = _LINE_BREAK.search(text, first.start())
    return collapse_spaces(text, first.start(), end.start() if end else len(text))


_COLLAPSE_CHARS = 1 << 16


def collapse_spaces(text: str, start: int = 0, end: int | None = None) -> str:
    """``" ".join(text[start:end].split())``, a piece at a time: re.sub and str.split keep a string object per word
    until they join, about 10x the line (a 15 MB line cost 160 MB)."""
    end = len(text) if end is None else end
    if end - start <= _COLLAPSE_CHARS:
        return " ".join(text[start:end].split())
    parts: list[str] = []
    for at in range(start, end, _COLLAPSE_CHARS):
        part = _SPACE_RUN.sub(" ", text[at:min(at + _COLLAPSE_CHARS, end)])
        if parts and part.startswith(" ") and parts[-1].endswith(" "):  # a run of spaces across the cut
            part = part[1:]
        if part:
            parts.append(part)
    return "".join(parts).strip()


def _unique(urls) -> list[str]:
    return list(dict.fromkeys(u.rstrip(".,;:") for u in urls))


class TextFormat:
    name = "text"

    def parse(self, body, url, *, content_type=None, **_) -> PreparedDocument:
        text = decode_text(body, content_type)
        return PreparedDocument(markdown=tidy(escape_text(text)), title=_first_line(text),
                                links=_unique(_URL_IN_TEXT.findall(text)), format="text")


MARKDOWN_PARSE_MAX_CHARS = 512 * 1024


class MarkdownFormat:
    """A Markdown page through the parser (gigflow.documents.markdown_source). The parser and formatter take
    about 20 us a character, so a page over ``parse_max_chars`` is kept as escaped plain text (safe, bounded)."""

    name = "markdown"

    def __init__(self, parse_max_chars: int = MARKDOWN_PARSE_MAX_CHARS):
        self.parse_max_chars = parse_max_chars

    def parse(self, body, url, *, content_type=None, **_) -> PreparedDocument:
        text = decode_text(body, content_type)
        report = PreparationReport()
        if len(text) > self.parse_max_chars:
            report.errors.append(f"markdown page of {len(text)} characters, over MARKDOWN_PARSE_MAX_CHARS "
                                 f"({self.parse_max_chars}): kept as plain text")
            return PreparedDocument(markdown=tidy(escape_text(text)), title=_first_line(text),
                                    links=_unique(_URL_IN_TEXT.findall(text)), format="markdown", report=report)
        clean = clean_markdown_page(text, url)
        report.links_resolved = clean.resolved
        return PreparedDocument(markdown=tidy(clean.markdown), title=clean.title or _first_line(text),
                                links=_unique(clean.links + _URL_IN_TEXT.findall(text)), format="markdown",
                                report=report)


class PdfFormat:
    """The PDF's text layer, page by page. A scanned PDF without one gets a clear error, not an empty success."""

    name = "pdf"

    def parse(self, body, url, *, content_type=None, **_) -> PreparedDocument:
        report = PreparationReport()
        data = body.encode("latin-1", "replace") if isinstance(body, str) else body
        try:
            from pypdf import PdfReader

            reader = PdfReader(io.BytesIO(data))
            pages = [(page.extract_text() or "").strip() for page in reader.pages]
            title = (reader.metadata or {}).get("/Title") if reader.metadata else None
        except Exception as exc:
            report.errors.append(f"PDF could not be read: {type(exc).__name__}: {exc}")
            return PreparedDocument(markdown="", format="pdf", report=report)
        text = "\n\n".join(p for p in pages if p)
        if not text:
            report.errors.append(f"PDF has no text layer ({len(pages)} page(s)); it needs OCR, which gigflow does not do")
        return PreparedDocument(markdown=tidy(escape_text(text)), title=str(title) if title else _first_line(text),
                                links=_unique(_URL_IN_TEXT.findall(text)), format="pdf", report=report)


class PayloadFormat:
    """JSON or XML for the adapters: the body is untouched; the Markdown is a code block to read it by."""

    def __init__(self, name: str):
        self.name = name

    def parse(self, body, url, *, content_type=None, **_) -> PreparedDocument:
        report = PreparationReport()
        text = decode_text(body, content_type)
        if self.name == "json":
            try:
                json.loads(text)
            except ValueError as exc:
                report.errors.append(f"JSON payload does not parse: {exc}")
        links = []
        for found in _URL_IN_TEXT.findall(text):
            links.append(urljoin(url, found))
        # Longer than any backtick run inside, so the payload cannot close the block and become Markdown.
        fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
        markdown = f"{fence}{self.name}\n{text.strip()}\n{fence}\n" if text.strip() else ""
        return PreparedDocument(markdown=markdown, title=None, links=_unique(links), format=self.name, report=report)
