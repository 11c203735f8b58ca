"""DocumentPreparer: picks the format parser by the one format sniffer (gigflow.documents.sniff). Pure: no I/O.

Every parser returns the same PreparedDocument (Markdown, title, absolute links, format, report). The raw
body is never changed: parsers work on a decoded copy, so the stored artifact and its sha256 stay as fetched.
"""

from __future__ import annotations

from gigflow.documents.formats import MARKDOWN_PARSE_MAX_CHARS, MarkdownFormat, PayloadFormat, PdfFormat, TextFormat
from gigflow.documents.html import DEFAULT_MAX_BYTES, HtmlFormat
from gigflow.documents.email_message import MessageFormat
from gigflow.documents.markdown import CHUNK_ELEMENTS, DEFAULT_CONVERTER
from gigflow.documents.sniff import sniff_format
from gigflow.documents.types import PreparedDocument

class DocumentPreparer:
    """One door for every fetched body: ``preparer.prepare(body, url, content_type, strategy, noise_filter)``."""

    def __init__(self, converter: str = DEFAULT_CONVERTER, max_bytes: int = DEFAULT_MAX_BYTES,
                 chunk_elements: int = CHUNK_ELEMENTS, markdown_parse_max_chars: int = MARKDOWN_PARSE_MAX_CHARS):
        self.converter = converter
        self.formats = {
            "html": HtmlFormat(converter, max_bytes, chunk_elements),
            "text": TextFormat(),
            "markdown": MarkdownFormat(markdown_parse_max_chars),
            "pdf": PdfFormat(),
            "json": PayloadFormat("json"),
            "xml": PayloadFormat("xml"),
        }
        self.formats["email"] = MessageFormat(self.formats)

    @classmethod
    def from_settings(cls, settings) -> DocumentPreparer:
        return cls(converter=settings.get("MARKDOWN_CONVERTER") or DEFAULT_CONVERTER,
                   max_bytes=settings.getint("PREPARATION_MAX_BYTES", DEFAULT_MAX_BYTES),
                   chunk_elements=settings.getint("MARKDOWN_CHUNK_ELEMENTS", CHUNK_ELEMENTS),
                   markdown_parse_max_chars=settings.getint("MARKDOWN_PARSE_MAX_CHARS", MARKDOWN_PARSE_MAX_CHARS))

    def prepare(self, body: bytes | str, url: str, content_type: str | None = None, strategy=None,
                noise_filter=None) -> PreparedDocument:
        """Prepare one body. Never raises for bad content: failures are errors in the report."""
        fmt = sniff_format(body, url, content_type)
        try:
            return self.formats[fmt].parse(body, url, content_type=content_type, strategy=strategy,
                                           noise_filter=noise_filter)
        except Exception as exc:  # each parser reports its own failures; this is the last line of defence
            document = PreparedDocument(markdown="", format=fmt)
            document.report.errors.append(f"{fmt} preparation failed: {type(exc).__name__}: {exc}")
            return document
