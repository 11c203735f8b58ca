"""HtmlFormat.parse: the one HTML preparation path.

Order matters and is fixed: assets out, links absolute (before the head and its <base> go), job cards,
the site's noise filter, then Markdown of the body. The raw body is never modified: we parse a copy.
"""

from __future__ import annotations

import codecs
import re
from functools import partial

from lxml import etree
from lxml import html as lxml_html
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, http_content_type_encoding, read_bom

from gigflow.documents.cards import remove_job_cards
from gigflow.documents.embeds import form_embed_name, is_form_embed
from gigflow.documents.formats import collapse_spaces
from gigflow.documents.links import http_origin, listed_link, resolve_links, resolve_url, usable_base
from gigflow.documents.markdown import CHUNK_ELEMENTS, DEFAULT_CONVERTER, get_converter, tidy
from gigflow.documents.markdown_writer import DIRECT, MarkdownWriter
from gigflow.documents.safe_text import escape_text
from gigflow.safety.guard import url_problem
from gigflow.documents.types import PreparationReport, PreparedDocument
from gigflow.noise.apply import apply_noise_filter

ASSET_TAGS = ("script", "style", "noscript", "template", "iframe", "svg", "canvas", "link", "meta", "object", "embed")
# Pages larger than this (bytes) get a plain-text preparation streamed without a tree: a full preparation costs
# about 13x the body in memory (the tree alone 10x), so 10 MiB keeps a page under 200 MB (make bench-memory).
DEFAULT_MAX_BYTES = 10 * 1024 * 1024
# Deeper nesting than this is flattened to its text before conversion: converters recurse per level.
MAX_DEPTH = 200
# NUL and the other C0 controls (but tab, newline, carriage return) cannot live in an lxml tree.
_CONTROL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
# Scanning the raw bytes first is cheaper; bytes without control bytes cannot decode to control characters.
_CONTROL_BYTES = bytes(range(0x00, 0x09)) + b"\x0b\x0c" + bytes(range(0x0e, 0x20))
# The HTML standard's event handler content attributes (plus a few legacy ones), stripped in one pass in C;
# an attribute-name XPath scan costs more than the rest of asset removal.
EVENT_HANDLERS = tuple("on" + name for name in (
    "abort afterprint animationend animationiteration animationstart auxclick beforeinput beforematch "
    "beforeprint beforetoggle beforeunload blur cancel canplay canplaythrough change click close contextlost "
    "contextmenu contextrestored copy cuechange cut dblclick drag dragend dragenter dragleave dragover "
    "dragstart drop durationchange emptied ended error focus focusin focusout formdata gotpointercapture "
    "hashchange input invalid keydown keypress keyup languagechange load loadeddata loadedmetadata loadstart "
    "lostpointercapture message messageerror mousedown mouseenter mouseleave mousemove mouseout mouseover "
    "mouseup mousewheel offline online pagehide pagereveal pageshow pageswap paste pause play playing "
    "pointercancel pointerdown pointerenter pointerleave pointermove pointerout pointerover pointerrawupdate "
    "pointerup popstate progress ratechange rejectionhandled reset resize scroll scrollend securitypolicyviolation "
    "seeked seeking select selectionchange selectstart slotchange stalled storage submit suspend timeupdate "
    "toggle touchcancel touchend touchmove touchstart transitioncancel transitionend transitionrun "
    "transitionstart unhandledrejection unload volumechange waiting wheel").split())


def decode_html(body: bytes | str, content_type: str | None = None) -> tuple[str, int]:
    """Decode as Scrapy does (HTTP header, BOM, meta charset, then detection; undecodable bytes replaced) and
    drop control characters. Returns the text and how many control characters were dropped."""
    text, dropped, utf8 = decode_for_parsing(body, content_type)
    return (utf8.decode("utf-8") if text is None else text), dropped


def decode_for_parsing(body: bytes | str, content_type: str | None = None) -> tuple[str | None, int, bytes | None]:
    """What the parser reads: ``(text, dropped, None)`` as ``decode_html`` gives them, or ``(None, 0, body)`` when the
    body already is that text's UTF-8 (see ``_plain_utf8``): then no decoded copy is made at all (making and freeing
    one cost about a fifth of the parse) and libxml2 reads the body as it came."""
    if isinstance(body, str):
        text = body
    else:
        clean = len(body.translate(None, _CONTROL_BYTES)) == len(body)  # C-speed scan; a regex is 5x slower
        if clean and _plain_utf8(body, content_type):
            return None, 0, body
        text = html_to_unicode(content_type, body)[1]
        if clean:
            return text, 0, None
    cleaned, dropped = _CONTROL_CHARS.subn("", text)
    return cleaned, dropped, None


_UTF8_CHUNK = 1 << 16


def _plain_utf8(body: bytes, content_type: str | None) -> bool:
    """True when html_to_unicode would decode ``body`` as UTF-8 (no BOM; the HTTP header, else the meta charset,
    else its default, says UTF-8) and nothing in it would be replaced: the decoded text's UTF-8 is the body."""
    if read_bom(body)[0] is not None:
        return False
    if (http_content_type_encoding(content_type) or html_body_declared_encoding(body) or "utf-8") != "utf-8":
        return False
    if body.isascii():
        return True
    decoder = codecs.getincrementaldecoder("utf-8")()  # strict; in chunks, so no full-size copy is made
    view = memoryview(body)
    try:
        for start in range(0, len(body), _UTF8_CHUNK):
            decoder.decode(view[start:start + _UTF8_CHUNK])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


# libxml2 stops at 2048 levels and drops everything after; deeper markup is flattened before a second parse.
PARSER_DEPTH_LIMIT = 1000
_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)(?:[^>\"']|\"[^\"]*\"|'[^']*')*?(/?)>")
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())


# Every element an HtmlElement, chosen in C: lxml.html's own lookup runs Python code for each element proxy (the
# form and input subclasses it picks are never used here), which cost more than parsing on large pages.
_HTML_CLASSES = etree.ElementDefaultClassLookup(element=lxml_html.HtmlElement, comment=lxml_html.HtmlComment,
                                                pi=lxml_html.HtmlProcessingInstruction, entity=lxml_html.HtmlEntity)


def _new_parser():
    parser = etree.HTMLParser(remove_comments=True, remove_pis=True, huge_tree=True, recover=True, encoding="utf-8")
    parser.set_element_class_lookup(_HTML_CLASSES)
    return parser


def _utf8(text: str) -> bytes:
    # libxml2 parses UTF-8 bytes faster than a Python str (which lxml re-encodes internally).
    return text.encode("utf-8", "replace")


def parse_html(text: str | None, report: PreparationReport | None = None, utf8: bytes | None = None):
    """Parse forgivingly (``utf8``: the text's UTF-8 when the caller has it; then ``text`` may be None). Markup
    nested past libxml2's depth limit is flattened (tags below PARSER_DEPTH_LIMIT dropped, text kept) and parsed
    again, so no content after it is lost."""
    parser = _new_parser()
    try:
        root = lxml_html.document_fromstring(_utf8(text) if utf8 is None else utf8, parser=parser)
    except etree.ParserError:  # "Document is empty": whitespace or nothing at all
        return lxml_html.document_fromstring(b"<html><body></body></html>", parser=_new_parser())
    if not any("Excessive depth" in entry.message for entry in parser.error_log):
        return root
    if text is None:
        text = utf8.decode("utf-8")
    flattened, dropped = flatten_deep_markup(text, PARSER_DEPTH_LIMIT)
    if report is not None:
        report.retained("depth-limit", text_length=len(flattened),
                        reason=f"markup nested deeper than {PARSER_DEPTH_LIMIT} levels: {dropped} inner tag(s) "
                               "dropped, their text kept")
    return lxml_html.document_fromstring(_utf8(flattened), parser=_new_parser())


def flatten_deep_markup(text: str, limit: int) -> tuple[str, int]:
    """Drop start and end tags that sit deeper than ``limit`` (approximate nesting by tag counting)."""
    depth = dropped = 0
    out: list[str] = []
    last = 0
    for match in _TAG.finditer(text):
        closing, name, self_closing = match.group(1), match.group(2).lower(), match.group(3)
        if name in _VOID or self_closing:
            continue
        drop = depth >= limit if not closing else depth > limit
        depth = depth + 1 if not closing else max(0, depth - 1)
        if drop:
            out.append(text[last:match.start()])
            last = match.end()
            dropped += 1
    out.append(text[last:])
    return "".join(out), dropped


def remove_assets(root, report: PreparationReport) -> None:
    """Assets and inline event handlers out, one report step per asset tag."""
    counts: dict[str, list[int]] = {}
    for frame in [f for f in root.iter("iframe") if is_form_embed(f.get("src"))]:
        link = frame.makeelement("a", {"href": frame.get("src").strip()})
        link.text, link.tail = form_embed_name(frame), frame.tail
        frame.getparent().replace(frame, link)
        report.retained("form-embed", selector="iframe", reason="an embedded application form, kept as a link",
                        text=link.get("href")[:200])
    for el in root.iter(*ASSET_TAGS):
        entry = counts.setdefault(el.tag, [0, 0])
        entry[0] += 1
        entry[1] += len(el.text_content() if len(el) else el.text or "")
    etree.strip_elements(root, *ASSET_TAGS, with_tail=False)  # in C; tails (text after the asset) stay
    for tag, (count, length) in counts.items():
        report.removed("asset", selector=tag, reason=f"{count} element(s)", text_length=length)
        report.assets_removed += count
    etree.strip_attributes(root, *EVENT_HANDLERS)


def page_title(root) -> str | None:
    # iter(tag) filters in C; find(".//h1") walks the tree in Python (ElementPath)
    h1 = next(root.iter("h1"), None)
    if h1 is not None and h1.text_content().strip():
        return " ".join(h1.text_content().split())
    title = next(root.iter("title"), None)
    if title is not None and (title.text or "").strip():
        return " ".join(title.text.split())
    return None


def _name_link(a) -> None:
    href = a.get("href")
    if not href.strip() or any((img.get("alt") or "").strip() for img in a.iter("img")):
        return
    label = (a.get("title") or a.get("aria-label") or "").strip() or href
    a.text = label
    # An image without alt inside the link would render as `[![](src)label]`: drop the image, keep the link.
    for img in list(a.iter("img")):
        img.drop_tree()


_XML_SPACE = " \t\r\n"  # what XPath's normalize-space() removes (markdown_writer names links by the same rule)


def _blank(a) -> bool:
    """XPath's not(normalize-space()) for an element: its text is nothing but spaces, tabs and line breaks."""
    if a.text and a.text.strip(_XML_SPACE):
        return False
    if not len(a):
        return True
    return not a.text_content().strip(_XML_SPACE)


_ANCHORS = etree.XPath("//a")


def prepare_links(root, report: PreparationReport) -> list[str]:
    """In one walk over the anchors: collect the absolute http(s) links (no userinfo); anchors taken out of keyboard
    navigation (tabindex="-1": facet and duplicate chips, whose inline URL would split the fact they sit in) become
    their text, their URL kept in the links; a link without text gets its title, aria-label, image alt or URL, so
    Markdown never shows `[](url)`. Returns the links."""
    seen: dict[str, None] = {}
    kept = []
    unlinked = 0
    for a in _ANCHORS(root):
        href = a.get("href")
        if href is None:
            continue
        href = listed_link(href)
        if href is not None:
            seen.setdefault(href, None)
        tabindex = a.get("tabindex")
        if tabindex is not None and tabindex.strip() == "-1":
            a.drop_tag()
            unlinked += 1
        else:
            kept.append(a)
    report_unlinked(report, unlinked)
    # After every unlink, in document order: an anchor's text is not changed by naming or
    # unlinking another anchor that is not inside it, and one inside it comes later.
    for a in kept:
        if _blank(a):
            if (a.get("aria-hidden") or "").strip().lower() == "true":  # a heading's permalink icon
                a.drop_tree()
            else:
                _name_link(a)
    return list(seen)


def report_unlinked(report: PreparationReport, count: int) -> None:
    if count:
        report.retained("unfocusable-link", selector='a[tabindex="-1"]',
                        reason=f"{count} link(s) kept as text; their URLs stay in the links list")


_AT_MAX_DEPTH: dict[int, etree.XPath] = {}


def flatten_deep_nesting(root, report: PreparationReport, max_depth: int = MAX_DEPTH,
                         links: dict[str, None] | None = None) -> int:
    """Elements nested deeper than max_depth keep their text and lose their inner structure (html-to-markdown
    silently drops text nested past about a thousand levels; markdownify and the direct writer recurse per level).
    ``links``, when given and something is flattened, first gets every listed link of the tree in document order
    (the direct writer lists links as it writes them, and would not see those of the anchors that go)."""
    if max_depth not in _AT_MAX_DEPTH:
        # A child-step path, not count(ancestor::*): on shallow pages the node set empties after a few steps.
        _AT_MAX_DEPTH[max_depth] = etree.XPath("/" + "/".join(["*"] * max_depth) + "[*]")
    deep = _AT_MAX_DEPTH[max_depth](root)
    if deep and links is not None:
        for a in _ANCHORS(root):
            href = listed_link(a.get("href") or "")
            if href is not None:
                links.setdefault(href, None)
    for el in deep:
        text = el.text_content()
        report.retained("depth-limit", path=el.getroottree().getpath(el), text_length=len(text),
                        reason=f"nesting deeper than {max_depth} levels flattened to its text")
        for child in list(el):
            el.remove(child)
        el.text = text
    return len(deep)


class HtmlFormat:
    """Prepares HTML. One instance per converter; parse() is pure and thread-safe."""

    name = "html"

    def __init__(self, converter: str = DEFAULT_CONVERTER, max_bytes: int = DEFAULT_MAX_BYTES,
                 chunk_elements: int = CHUNK_ELEMENTS):
        self.converter = converter
        self.max_bytes = max_bytes
        self._to_markdown = partial(get_converter(converter), chunk_elements=chunk_elements)
        self.chunk_elements = chunk_elements

    def clean_tree(self, body: bytes | str, url: str, *, content_type: str | None = None, strategy=None,
                   report: PreparationReport):
        """Decode and parse a copy; assets out, links absolute, job cards out. Returns (root, title)."""
        text, dropped, utf8 = decode_for_parsing(body, content_type)
        if dropped:
            report.retained("control-characters", reason=f"{dropped} NUL/control character(s) dropped before parsing")
        root = parse_html(text, report, utf8)
        title = page_title(root)
        remove_assets(root, report)
        base_url = usable_base(root, url)
        report.base_url = base_url if base_url != url else None
        report.links_resolved = resolve_links(root, base_url, url)
        for base in list(root.iter("base")):
            base.drop_tree()
        remove_job_cards(root, strategy, url, report)
        return root, title

    def parse(self, body: bytes | str, url: str, *, content_type: str | None = None, strategy=None,
              noise_filter=None) -> PreparedDocument:

        report = PreparationReport(noise_filter=noise_filter.fingerprint() if noise_filter is not None else None)
        size = len(body)
        if self.max_bytes and size > self.max_bytes:
            return self._plain_text(body, url, content_type, report, size)
        try:
            root, title = self.clean_tree(body, url, content_type=content_type, strategy=strategy, report=report)
            apply_noise_filter(root, noise_filter, report, page_url=url)
            direct = self.converter == DIRECT
            # The direct writer lists, unlinks and names links as it writes them: one walk fewer.
            listed: dict[str, None] = {}
            links = None if direct else prepare_links(root, report)
            flatten_deep_nesting(root, report, links=listed if direct else None)
        except Exception as exc:  # a malformed page never crashes a crawl: the report says what went wrong
            report.errors.append(f"HTML preparation failed: {type(exc).__name__}: {exc}")
            return PreparedDocument(markdown="", format="html", report=report)
        body_el = root.find("body")
        content = body_el if body_el is not None else root
        writer = None
        try:
            if direct:
                # It clears what it has written from the tree: the tree shrinks as the Markdown grows.
                writer = MarkdownWriter(links=listed, piece_fragments=self.chunk_elements)
                markdown = tidy(writer.write(content))
                report_unlinked(report, writer.unlinked)
                links = list(listed)
            else:
                markdown = self._to_markdown(content)
        except Exception as exc:
            report.errors.append(f"Markdown conversion ({self.converter}) failed: {type(exc).__name__}: {exc}; "
                                 "stored the plain text instead")
            if links is None:
                # (the direct writer listed the links of what it wrote, which has left the tree)
                links = list(dict.fromkeys([*listed, *prepare_links(root, report)]))
            # What the direct writer finished before it failed has left the tree: it stays, the rest as text.
            written = ["".join(writer.pieces)] if writer is not None and writer.pieces else []
            text = (escape_text(line) for line in (" ".join(part.split()) for part in content.itertext()) if line)
            markdown = "\n\n".join([*written, *text]) + "\n"
        return PreparedDocument(markdown=markdown, title=title, links=links, format="html", report=report)


    def _plain_text(self, body, url, content_type, report: PreparationReport, size: int) -> PreparedDocument:
        """The degraded path for oversized pages: their text and links, streamed through libxml2's parser
        without building a tree (a tree alone costs 10x the body; see make bench-memory); no card rules,
        noise filter or Markdown structure."""
        report.errors.append(f"page is {size / 1e6:.1f} MB, over PREPARATION_MAX_BYTES ({self.max_bytes / 1e6:.1f} MB): "
                             "stored its plain text without card rules, noise filter or Markdown structure")
        try:
            text, _ = decode_html(body, content_type)
            collector = _TextCollector(url)
            parser = etree.HTMLParser(target=collector, remove_comments=True, remove_pis=True, huge_tree=True,
                                      recover=True)
            for start in range(0, len(text), _FEED_CHARS):
                parser.feed(text[start:start + _FEED_CHARS])
            del text
            parser.close()
            markdown = "\n\n".join(escape_text(line) for line in collector.lines() if line) + "\n"
        except Exception as exc:
            report.errors.append(f"plain-text preparation failed too: {type(exc).__name__}: {exc}")
            return PreparedDocument(markdown="", format="html", report=report)
        return PreparedDocument(markdown=markdown, title=collector.title(), links=collector.links, format="html",
                                report=report)


_FEED_CHARS = 1 << 20
# Block elements end a line of plain text; asset elements' text is dropped (as in full preparation).
_BLOCKS = frozenset("address article aside blockquote br dd div dl dt fieldset figcaption figure footer form h1 h2 h3 "
                    "h4 h5 h6 header hr li main nav ol p pre section table td th tr ul".split())
_SKIPPED = frozenset(ASSET_TAGS) | {"head"} - {"title"}


class _TextCollector:
    """An lxml parser target (SAX-style events, no tree): text by block, the title and absolute http(s) links."""

    def __init__(self, url: str):
        self.url = url
        self._origin = http_origin(url)
        self.links: list[str] = []
        self._seen: set[str] = set()
        self._parts: list[str] = []
        self._lines: list[str] = []
        self._skip = 0
        self._title: list[str] | None = None
        self._h1: list[str] | None = None
        self._first_h1: str | None = None
        self._page_title: str | None = None

    def start(self, tag, attrib):
        if tag in _SKIPPED:
            self._skip += 1
        elif tag == "title" and self._page_title is None:
            self._title = []
        elif tag == "h1" and self._first_h1 is None:
            self._h1 = []
        if tag in _BLOCKS:
            self._break()
        if tag == "a":
            href = resolve_url(attrib.get("href") or "", self.url, self.url, self._origin)
            if href and href.startswith(("http://", "https://")) and href not in self._seen and url_problem(href) is None:
                self._seen.add(href)
                self.links.append(href)

    def end(self, tag):
        if tag in _SKIPPED:
            self._skip = max(0, self._skip - 1)
        elif tag == "title" and self._title is not None:
            self._page_title, self._title = collapse_spaces("".join(self._title)) or None, None
        elif tag == "h1" and self._h1 is not None:
            self._first_h1, self._h1 = collapse_spaces("".join(self._h1)) or None, None
        if tag in _BLOCKS:
            self._break()

    def _break(self):
        # One finished line per block: small text nodes do not pile up as separate strings.
        if self._parts:
            line = collapse_spaces("".join(self._parts))
            self._parts = []
            if line:
                self._lines.append(line)

    def data(self, text):
        if self._title is not None:
            self._title.append(text)
        if self._skip:
            return
        if self._h1 is not None:
            self._h1.append(text)
        self._parts.append(text)

    def comment(self, text):
        pass

    def close(self):
        return None

    def lines(self):
        self._break()
        return self._lines

    def title(self) -> str | None:
        return self._first_h1 or self._page_title


_DEFAULT_FORMATS: dict[str, HtmlFormat] = {}


def prepare_html(body: bytes | str, url: str, *, content_type: str | None = None, strategy=None,
                 noise_filter=None, converter: str | None = None) -> PreparedDocument:
    """Prepare one HTML page: assets out, links absolute, job cards and the site's noise filter applied, then
    Markdown (``converter`` names one of MARKDOWN_CONVERTERS; default DEFAULT_CONVERTER)."""
    name = converter or DEFAULT_CONVERTER
    fmt = _DEFAULT_FORMATS.get(name) or _DEFAULT_FORMATS.setdefault(name, HtmlFormat(name))
    return fmt.parse(body, url, content_type=content_type, strategy=strategy, noise_filter=noise_filter)
