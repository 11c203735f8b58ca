"""The one place HTML becomes Markdown: three converters behind the MARKDOWN_CONVERTER setting.

- ``direct`` (default): our writer over the prepared lxml tree (``markdown_writer``): no serialization and no
  second parse, so about 1.6x html-to-markdown's pages/s for the whole preparation (``make bench``), same facts.
- ``html-to-markdown``: the Rust-backed html-to-markdown 3.x with its own preprocessing turned off,
  so preparation, not the converter, decides what goes (its defaults drop navigation, forms and hidden
  content, which holds job facts on real pages). About 4x faster than markdownify on the shared corpus and
  keeps the same facts (see ``make bench`` and tests/test_prepare_corpus_facts.py).
- ``markdownify``: markdownify with our own converter subclass (GFM tables with colspan/rowspan padding).

All take a prepared lxml element with links already absolute. For the two serializing converters empty link texts
are already named (``html.prepare_links``), the tree is neutralized before conversion (text escaped by placeholder,
link and image targets checked) and the output finished after it (``safe_text``); the direct writer names links,
escapes text and checks targets as it writes. Text stays text whichever converter runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from html import escape as html_escape

from lxml import etree
from lxml import html as lxml_html

from gigflow.documents.markdown_writer import DIRECT, MarkdownWriter, padded_grid
from gigflow.documents.safe_text import finish_markdown, neutralize_tree, placeholder_serialized

DEFAULT_CONVERTER = DIRECT
_BLANK_RUNS = re.compile(r"\n[ \t]*(?:\n[ \t]*){2,}")


def tidy(markdown: str) -> str:
    """No runs of blank lines, no trailing blanks, exactly one final newline, no NUL (PostgreSQL cannot store it)."""
    markdown = _BLANK_RUNS.sub("\n\n", markdown.replace("\r\n", "\n").replace("\x00", ""))
    # (each step returns the very string when it changes nothing; so does this one: no copy of a large page)
    if markdown[-1:] == "\n" and not markdown[:1].isspace() and not markdown[-2:-1].isspace():
        return markdown
    return markdown.strip() + "\n" if markdown.strip() else ""


# MARKDOWN_CHUNK_ELEMENTS: a tree with more elements than this is converted in pieces of about this many
# elements, each a run of siblings, so the converter's own DOM (html-to-markdown builds one about 20x the HTML)
# stays small and each converted piece leaves the tree. Smaller trees go in one piece. Containers are split,
# never lists or tables.
CHUNK_ELEMENTS = 5000
_SPLITTABLE = frozenset("html body div section article main header footer aside nav form center span font".split())


def _as_tree(tree):
    if isinstance(tree, str):
        return lxml_html.fragment_fromstring(tree, create_parent="div") if tree.strip() else lxml_html.Element("div")
    return tree


_COUNT_ELEMENTS = etree.XPath("count(descendant-or-self::*)")


def _size(el) -> int:
    return int(_COUNT_ELEMENTS(el))  # counted in C: iterating from Python creates a proxy per element


# A child subtree up to this many elements is counted by iteration: an XPath call on an element of a large document
# costs about 10 us before it counts anything, and a split page has a thousand small children.
_ITERATED_COUNT = 256


def _small_size(el) -> int | None:
    """count(descendant-or-self::*) of el by iteration, or None past _ITERATED_COUNT."""
    count = 0
    for _ in el.iter(etree.Element):  # elements only, as the XPath count
        count += 1
        if count > _ITERATED_COUNT:
            return None
    return count


def _child_sizes(el, size: int) -> list[int]:
    """The element count of each child of el (whose own count is ``size``). One large child's count is what is left
    of el's: a page that is a chain of wrappers would otherwise be counted again at every level."""
    children = list(el)
    sizes = [_small_size(child) for child in children]
    large = [i for i, n in enumerate(sizes) if n is None]
    for i in large[:-1]:
        sizes[i] = _size(children[i])
    if large:
        sizes[large[-1]] = 0
        sizes[large[-1]] = size - 1 - sum(sizes)
    return sizes


_META_CONTENT_TYPE = '<meta http-equiv="Content-Type"'
_META_CONTENT_TYPE_TAG = re.compile(r'<meta http-equiv="Content-Type"[^>]*>')


def _serialize(el, with_tail: bool) -> str:
    """lxml.html.tostring(el, encoding="unicode"), which also runs a regex over the whole output for a tag that
    preparation has already removed: the regex now runs only when the tag is there."""
    html = etree.tostring(el, method="html", encoding="unicode", with_tail=with_tail)
    return _META_CONTENT_TYPE_TAG.sub("", html) if _META_CONTENT_TYPE in html else html


def html_pieces(el, limit: int = CHUNK_ELEMENTS, size: int | None = None):
    """Serialized runs of siblings, in document order; a converted run is removed from the tree (memory).
    ``size`` is el's element count when the caller has counted it already."""
    if el.tag not in _SPLITTABLE or (size := size if size is not None else _size(el)) <= limit:
        yield _serialize(el, with_tail=False)
        return
    if el.text and el.text.strip():
        yield f"<p>{html_escape(el.text, quote=False)}</p>"
    group: list = []
    count = 0

    def flush():
        nonlocal group, count
        if group:
            # The run moves (tails with it) into a new <div> of its own small document and is serialized in one call:
            # serializing an element of a large document costs about 30 us a call whatever its size.
            wrapper = etree.Element("div")
            wrapper.extend(group)
            group, count = [], 0
            return _serialize(wrapper, with_tail=False)
        return None

    for child, size in zip(list(el), _child_sizes(el, size)):
        if size > limit and isinstance(child.tag, str) and child.tag in _SPLITTABLE:
            piece = flush()
            if piece:
                yield piece
            yield from html_pieces(child, limit, size)
            tail = child.tail
            el.remove(child)
            if tail and tail.strip():
                yield f"<p>{html_escape(tail, quote=False)}</p>"
            continue
        group.append(child)
        count += size
        if count >= limit:
            yield flush()
    piece = flush()
    if piece:
        yield piece


def _convert(tree, convert_piece: Callable[[str], str], chunk_elements: int) -> str:
    """Neutralize (safe_text), convert piece by piece, finish: the path both converters share."""
    tree = _as_tree(tree)
    neutralize_tree(tree)
    pieces = html_pieces(tree, chunk_elements or CHUNK_ELEMENTS)
    parts = [convert_piece(placeholder_serialized(piece)) for piece in pieces]
    return tidy(finish_markdown("\n\n".join(part.strip("\n") for part in parts if part and part.strip())))


# -- html-to-markdown ------------------------------------------------------------------------------------------

_H2M = None


def _h2m():
    """The native convert function and its options, built once: the package's Python wrapper rebuilds the native
    options from the dataclass on every call (a tenth of the conversion time on small pieces)."""
    global _H2M
    if _H2M is None:
        import html_to_markdown
        from html_to_markdown import _html_to_markdown as native
        from html_to_markdown.api import _to_rust_conversion_options

        options = html_to_markdown.ConversionOptions(
            preprocessing=html_to_markdown.PreprocessingOptions(enabled=False),
            hidden_content="all",  # collapsed sections and tabs hold job facts
            extract_metadata=False,
            bullets="-",
            heading_style="atx",
            newline_style="backslash",
        )
        try:
            _H2M = partial(native.convert, options=_to_rust_conversion_options(options), visitor=None)
        except (AttributeError, TypeError):  # another package version: its public wrapper, options per call
            _H2M = partial(html_to_markdown.convert, options=options)
    return _H2M


def _h2m_piece(html: str) -> str:
    result = _h2m()(html)
    return getattr(result, "content", result) or ""


def h2m_to_markdown(tree, chunk_elements: int = CHUNK_ELEMENTS) -> str:
    return _convert(tree, _h2m_piece, chunk_elements)


# -- markdownify -----------------------------------------------------------------------------------------------

# Private-use markers carry cell and row boundaries from convert_td/convert_tr up to convert_table.
_CELL = re.compile("\ue001(th|td)\ue002(\\d+)\ue002(\\d+)\ue003(.*?)\ue004", re.S)
_ROW = re.compile("\ue005(.*?)\ue006", re.S)
_MAX_COLSPAN, _MAX_ROWSPAN = 50, 500


def _span(el, name: str, limit: int) -> int:
    try:
        return min(max(int(str(el.get(name) or "1").strip()), 1), limit)
    except ValueError:
        return 1


def _make_markdownify_converter():
    from markdownify import MarkdownConverter

    class GigflowConverter(MarkdownConverter):
        """markdownify with our habits: GFM tables (header row, escaped pipes, spans padded), blocks kept apart."""

        # Empty link text is named before conversion (html.prepare_links), for both serializing converters.
        # markdownify treats these as inline; they are blocks, and their text must not run together.
        convert_nav = convert_header = convert_footer = convert_aside = convert_main = convert_form = \
            MarkdownConverter.convert_div
        convert_fieldset = convert_figure = convert_details = convert_summary = convert_address = \
            MarkdownConverter.convert_div

        def _cell(self, kind, el, text):
            return (f"\ue001{kind}\ue002{_span(el, 'colspan', _MAX_COLSPAN)}\ue002"
                    f"{_span(el, 'rowspan', _MAX_ROWSPAN)}\ue003{text}\ue004")

        def convert_td(self, el, text, parent_tags):
            return self._cell("td", el, text)

        def convert_th(self, el, text, parent_tags):
            return self._cell("th", el, text)

        def convert_tr(self, el, text, parent_tags):
            return f"\ue005{text}\ue006"

        def convert_table(self, el, text, parent_tags):
            grid = _grid(text)
            if not grid:
                return "\n\n" + _CELL.sub(lambda m: m.group(4), text).replace("\ue005", "").replace("\ue006", "") + "\n\n"
            width = max(len(row) for row in grid)
            rows = [row + [""] * (width - len(row)) for row in grid]
            lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(["---"] * width) + " |"]
            lines += ["| " + " | ".join(row) + " |" for row in rows[1:]]
            return "\n\n" + "\n".join(lines) + "\n\n"

    return GigflowConverter(heading_style="ATX", bullets="-", strip=None, escape_underscores=False,
                            escape_asterisks=False)


def _cell_text(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _grid(text: str) -> list[list[str]]:
    """Rows of cell texts with colspans and rowspans padded by empty cells."""
    return padded_grid([[(_cell_text(cell), int(colspan), int(rowspan))
                         for _kind, colspan, rowspan, cell in _CELL.findall(row_text)]
                        for row_text in _ROW.findall(text)])


_MARKDOWNIFY = None


def _markdownify_piece(html: str) -> str:
    global _MARKDOWNIFY
    if _MARKDOWNIFY is None:
        _MARKDOWNIFY = _make_markdownify_converter()
    return _MARKDOWNIFY.convert(html)


def markdownify_to_markdown(tree, chunk_elements: int = CHUNK_ELEMENTS) -> str:
    return _convert(tree, _markdownify_piece, chunk_elements)


# -- direct: our own writer over the lxml tree -----------------------------------------------------------------

def direct_to_markdown(tree, chunk_elements: int = CHUNK_ELEMENTS) -> str:
    """No serialization and no second parse; a large tree is written in pieces of about ``chunk_elements`` text
    nodes, each cleared from the tree once written (``MarkdownWriter``)."""
    return tidy(MarkdownWriter(piece_fragments=chunk_elements).write(tree))


CONVERTERS: dict[str, Callable] = {
    DIRECT: direct_to_markdown,
    "html-to-markdown": h2m_to_markdown,
    "markdownify": markdownify_to_markdown,
}


def get_converter(name: str | None) -> Callable:
    """The converter named by MARKDOWN_CONVERTER; a clear error for an unknown name."""
    name = name or DEFAULT_CONVERTER
    try:
        return CONVERTERS[name]
    except KeyError:
        raise ValueError(f"unknown MARKDOWN_CONVERTER {name!r}; choose one of {', '.join(CONVERTERS)}") from None


def html_to_markdown(tree, converter: str | None = None) -> str:
    """Convert a prepared lxml tree (or HTML string) to Markdown with the named converter."""
    return get_converter(converter)(tree)
