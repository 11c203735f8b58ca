"""The ``direct`` converter: Markdown written straight from the prepared lxml tree, in one walk.

The other converters read HTML text, so the tree had to be serialized and parsed again (html-to-markdown's own
parse and DOM cost more than our parse, every pass of preparation and the serialization together). This one
walks the tree we already have: each element's text goes out once, escaped as it is written.

Safe by construction, as ``safe_text`` requires of every converter: text is escaped as it is written (so no
placeholder round trip and no ``finish_markdown``), the writer itself writes ``<`` only for an autolink to a
target that passed the link policy, link targets go through ``safe_link``/``safe_image``, and an image whose source
is refused becomes its alt text. Video and audio sources are not written at all.

Structure kept: ATX headings, paragraphs, hard line breaks, nested ordered and unordered lists, block quotes,
fenced code blocks, inline code, strong and emphasis, links and images, GFM tables (header row, escaped pipes,
colspan and rowspan padded; a table's cells hold their blocks' text on one line, as html-to-markdown writes them).

How it works: elements append strings to a list; block elements append BREAK markers around their content, and
whitespace is collapsed once per finished paragraph, not per text node. A block that is finished inside another
(a list, a quote, a table, a code block) protects its line breaks and indentation with markers of its own, so the
enclosing paragraph's whitespace collapsing leaves them alone.

A large page is written in pieces (bounded memory): once the document's own list holds ``piece_fragments`` strings
and ends at a block boundary, that run is finished (collapsed, laid out, escaped) into one piece of Markdown and the
list starts afresh; each element of the document's flow is cleared from the tree once written, so the tree shrinks
as the Markdown grows. Paragraphs never span a block boundary, so the pieces joined by a blank line are the
Markdown of the whole. The markers are C0 control characters, which an
lxml tree's text and attributes cannot hold (``decode_html`` drops them; lxml refuses them), so a page cannot
forge one. Recursion is per nesting level: preparation flattens a tree deeper than ``html.MAX_DEPTH`` first.
"""

from __future__ import annotations

import re

from lxml import etree
from lxml import html as lxml_html

from gigflow.documents.links import listed_link
from gigflow.documents.safe_text import IMAGE_SCHEMES, PLAIN_WEB_URL, link_destination, safe_target

DIRECT = "direct"  # its MARKDOWN_CONVERTER name
BREAK = "\x01"  # a block boundary: a blank line once the enclosing block is finished
NL = "\x02"  # a line break inside a paragraph (after a <br>), which whitespace collapsing keeps
HARD = "\x04"  # <br>
BLOCK = "\x05"  # BLOCK<n>BLOCK stands for finished block n (a list, a quote, a table, a code block)
# Markdown syntax the writer writes; text is escaped once, over the whole document, and these become the syntax after.
OPEN, CLOSE, ANGLE, BACKSLASH, AMP = "\x0e", "\x0f", "\x10", "\x11", "\x12"

# HTML's whitespace, and the no-break space (a space in the Markdown, as html-to-markdown writes it).
_WS = re.compile("[ \t\n\r\f\xa0]+")
_WS_CHARS = " \t\n\r\f\xa0"
# What str.split() splits at besides _WS (\v and \x1c-\x1f cannot be in a tree, but cost nothing to name).
_NOT_HTML_SPACE = re.compile("[\x0b\x1c-\x1f\x85\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]").search
# Whitespace and every marker but the syntax ones: what a heading, a link's text or a table cell collapses.
_INLINE_WS = re.compile("[ \t\n\r\f\xa0\x01-\x04]+")
_AROUND_HARD = re.compile(r" ?\x04 ?")
_ENTITY_AMP = re.compile(r"&(?=#?[A-Za-z0-9]+;)")  # the "&" alternative of safe_text._TEXT_SPECIAL


def _escape(text: str) -> str:
    """safe_text._TEXT_SPECIAL escaped: its single characters by str.replace (C speed; a regex with a backreference
    template runs Python code per match), the entity-like "&" by a literal template."""
    for char in "\\<[]":  # the backslash first, so the ones added are not doubled
        if char in text:
            text = text.replace(char, "\\" + char)
    return _ENTITY_AMP.sub(r"\\&", text) if "&" in text else text


_SYNTAX = ((OPEN, "["), (CLOSE, "]"), (ANGLE, "<"), (BACKSLASH, "\\"), (AMP, "&"))
_plain_url = PLAIN_WEB_URL.fullmatch
_BACKTICKS = re.compile("`+")
_XML_SPACE = " \t\r\n"  # a link whose text is only these is named (html.prepare_links's rule)
_MAX_COLSPAN, _MAX_ROWSPAN = 50, 500
# A page is written in pieces of about this many strings (about one per text node; MARKDOWN_CHUNK_ELEMENTS sets it
# in preparation): a piece's strings, and their copies while it is finished, are all a page holds besides its tree
# and its Markdown.
PIECE_FRAGMENTS = 5000
_HELD_CHARS = 1000

BLOCK_TAGS = frozenset(
    "address article aside center dd details dialog div dl dt fieldset figcaption figure footer form header hgroup "
    "legend li main menu nav p search section summary tbody tfoot thead tr td th caption body html".split())
# Their text is not page content (removed as assets by preparation; a string given to the converter keeps them).
_SKIPPED = frozenset("head script style template noscript".split())


def _paragraphs(pieces: list[str]) -> list[str]:
    """The finished paragraphs of a run of pieces (emptied): split at block boundaries, whitespace collapsed and
    trimmed."""
    paragraphs = []
    text = "".join(pieces)
    pieces.clear()  # the caller is done with them: on a large page they are several times the text (peak memory)
    # str.split() is twice as fast as the regex, but also splits at Unicode spaces HTML keeps: those take the regex.
    # (It drops the first and last space too, which stripping each paragraph does anyway.)
    text = _WS.sub(" ", text) if _NOT_HTML_SPACE(text) else " ".join(text.split())
    for part in text.split(BREAK):  # one collapse per block, not per paragraph
        if not part or part == " ":
            continue
        if HARD in part:
            part = _AROUND_HARD.sub(HARD, part).strip(" " + HARD).replace(HARD, BACKSLASH + NL)
        else:
            part = part.strip(" ")
        if part:
            paragraphs.append(part)
    return paragraphs


def _ends_a_block(out: list[str]) -> bool:
    """Whether the text so far ends at a block boundary (nothing but HTML whitespace after the last BREAK), so that
    what follows starts a paragraph of its own."""
    for fragment in reversed(out):
        core = fragment.rstrip(_WS_CHARS)
        if core:
            return core[-1] == BREAK
    return True


def _one_line(text: str) -> str:
    """Inline content on one line (a heading, a link's text, a table cell)."""
    if "  " not in text and text.isprintable():  # no run to collapse: \t\n\r\f, \xa0 and markers are unprintable
        return text.strip(" ")
    return _INLINE_WS.sub(" ", text).strip(" ")


# Punctuation that closes emphasised words (a German quotation closes with “).
_CLOSING = ".,:;!?)]}»”’“"
_CLOSING_PUNCTUATION = frozenset(_CLOSING)
# The bracket or quote that opens what such punctuation closes: "(*Gantt*)" is written "*(Gantt)*", so stripping
# the marks leaves "(Gantt)", not "( Gantt )".
_OPENERS = {")": "(", "]": "[", "}": "{", "»": "«", "”": "“", "’": "‘", "“": "„"}
_MARKS = ("**", "~~", "*")


# Letters glued to emphasised words ("d'<b>adaptation</b>", "<b>multi</b>-tenant") go inside the marks too:
# stripping "d'**adaptation**" of its marks would leave "d' adaptation" to a reader of plain text.
_GLUED_BEFORE = re.compile(r"[^\W_][\w'’-]{0,40}\Z")
_GLUED_AFTER = re.compile(r"[\w'’-]")
_CLOSING_RUN = re.compile(r"(?:[\w'’-]|[" + re.escape(_CLOSING) + r"])*")


def _glued_into_marks(out: list[str], text: str) -> str:
    """Take the part of a word that ends ``out`` right before emphasised ``text`` off ``out``; returns it."""
    if not text or text[0] in _WS_CHARS or not out:
        return ""
    glued = _GLUED_BEFORE.search(out[-1])
    if glued is None:
        return ""
    out[-1] = out[-1][:glued.start()]
    return glued.group(0)


def _punctuation_into_marks(out: list[str], tail: str) -> str:
    """``**Location**: Berlin`` written as ``**Location:** Berlin``: the punctuation that closes emphasised words
    goes inside the marks, so that stripping the marks leaves the sentence as the page wrote it ("Location:",
    not "Location :"); a bracket closing them takes its opener in too ("*(Gantt)*"). Returns what is left of the
    tail."""
    last = out[-1] if out else ""
    for mark in _MARKS:
        if last.endswith(mark) and len(last) > 2 * len(mark) and not last[-len(mark) - 1].isspace():
            run = _CLOSING_RUN.match(tail).end()
            out[-1] = last[:-len(mark)] + tail[:run] + mark
            opener = _OPENERS.get(tail[0], "")
            before = out[-2] if len(out) > 1 else ""
            if opener and last.startswith(mark) and before.endswith(opener):
                out[-2], out[-1] = before[:-1], mark + opener + out[-1][len(mark):]
            return tail[run:]
    return tail


def _wrap(text: str, mark: str, out: list[str]) -> None:
    """Append ``mark``text``mark``, the surrounding whitespace kept outside the marks."""
    core = text.strip(_WS_CHARS)
    if not core:
        out.append(text)
        return
    lead = " " if text[0] in _WS_CHARS else ""
    trail = " " if text[-1] in _WS_CHARS else ""
    out.append(f"{lead}{mark}{core}{mark}{trail}")


def _hidden(el) -> bool:
    """Hidden from screen readers (``aria-hidden="true"``): decoration, such as a heading's "#" permalink."""
    return (el.get("aria-hidden") or "").strip().lower() == "true"


def _link_target(value: str | None) -> str | None:
    if value is None:
        return None
    return value if _plain_url(value) else safe_target(value, readable=True)


def _span(el, name: str, limit: int) -> int:
    value = el.get(name)
    if value is None:
        return 1
    try:
        return min(max(int(value.strip()), 1), limit)
    except ValueError:
        return 1


class MarkdownWriter:
    """One conversion: ``MarkdownWriter(links).write(element)``.

    What ``html.prepare_links`` does for the other converters happens here, as each anchor is written: its listed
    link goes into ``links`` (a dict used as an ordered set), an anchor taken out of keyboard navigation
    (``tabindex="-1"``) is written as its text (counted in ``unlinked``), and a link without text is named by its
    title, aria-label or URL (an image with alt text counts as text).

    Handlers append an element (not its tail) to ``out``. Inside a heading, a link or a table cell (``flat`` above
    zero) blocks are only their text: the content ends on one line. A finished list, quote, table or code block is
    kept aside in ``blocks`` and only a reference to it goes on, so an enclosing list or quote never copies or
    rescans it: the prefixes of nested blocks are applied once, when the document is put together (linear time
    however deep hostile markup nests them)."""

    def __init__(self, links: dict[str, None] | None = None, piece_fragments: int = PIECE_FRAGMENTS):
        self.flat = 0
        self.marked = 0  # inside emphasis or code: no marks inside marks
        self.links = {} if links is None else links
        self.unlinked = 0
        self.blocks: list[tuple] = []
        self.piece_fragments = max(1, piece_fragments)
        self.pieces: list[str] = []  # the Markdown finished so far, in order, to be joined as it is
        self._top: list[str] | None = None  # the document's own list: the one that is written in pieces

    def write(self, tree) -> str:
        """Markdown of a prepared lxml element (or an HTML string), safe to render; ``tidy`` still to apply (the
        Markdown ends with a newline, unless it is empty).
        The element's content is cleared from the tree as it is written (see the module docstring)."""
        if isinstance(tree, str):
            tree = (lxml_html.fragment_fromstring(tree, create_parent="div") if tree.strip()
                    else lxml_html.Element("div"))
        out: list[str] = []
        self._top = out
        try:
            self.element(tree, out)
            self.finish_piece(out)
        finally:
            self._top = None
        if self.pieces:  # ending in a newline, as tidy leaves it, so that tidy need not copy the whole
            self.pieces.append("\n")
        markdown = "".join(self.pieces)
        self.pieces = []
        return markdown

    def finish_piece(self, out: list[str]) -> None:
        """The document's list so far (ending at a block boundary) as one piece of Markdown; the list is emptied."""
        paragraphs = _paragraphs(out)
        if paragraphs:
            lines: list[str] = []
            self.lines(paragraphs, "", "", lines)
            del paragraphs  # each stage's copy of the text goes as soon as the next one is made (peak memory)
            piece = _escape("\n".join(lines))
            lines.clear()
            for marker, syntax in _SYNTAX:
                if marker in piece:
                    piece = piece.replace(marker, syntax)
            if self.pieces:
                self.pieces.append("\n\n")
            # Held in short strings: they fit in the small blocks of memory the cleared part of the tree left free,
            # where a long one would take fresh memory (the whole Markdown is made once, at the end).
            self.pieces.extend(piece[start:start + _HELD_CHARS] for start in range(0, len(piece), _HELD_CHARS))
        self.blocks.clear()  # every block kept so far is referenced from this piece, and written in it

    def children(self, el, out: list[str]) -> None:
        append = out.append
        text = el.text
        if text:
            append(text)
        handlers = _HANDLERS
        top = out is self._top  # the document's flow (flat and marked are zero there): written in pieces
        for child in el:
            handler = handlers.get(child.tag)  # comments and processing instructions: their tag is a function
            if handler is not None:
                handler(self, child, out)
            elif len(child):
                self.children(child, out)  # inline: span, font, ...
            else:
                text = child.text
                if text:
                    append(text)
            tail = child.tail
            if tail:
                if handler in _MARKING and (tail[0] in _CLOSING_PUNCTUATION or _GLUED_AFTER.match(tail)):
                    tail = _punctuation_into_marks(out, tail)
                append(tail)
            if top:
                child.clear()  # written: its subtree leaves the tree (peak memory)
                if len(out) >= self.piece_fragments and _ends_a_block(out):
                    self.finish_piece(out)

    def keep(self, block: tuple, out: list[str]) -> None:
        out.append(f"{BREAK}{BLOCK}{len(self.blocks)}{BLOCK}{BREAK}")
        self.blocks.append(block)

    def lines(self, paragraphs: list[str], first: str, rest: str, out: list[str], item: bool = False) -> None:
        """Paragraphs as lines, the first prefixed by ``first`` and the others by ``rest`` (a list item's marker and
        indentation, a quote's ``>``); a blank line between paragraphs, but none in a list ``item`` between its text
        and a nested list (a tight list)."""
        prefix = first
        previous = None
        for index, paragraph in enumerate(paragraphs):
            block = self.blocks[int(paragraph[1:-1])] if paragraph[0] == BLOCK else None
            if index and not (item and previous is None and block is not None and block[0] == "list"):
                out.append(rest.rstrip())
            previous = block
            if block is None:
                for line in paragraph.split(NL):
                    out.append(prefix + line)
                    prefix = rest
            elif block[0] == "text":
                for line in block[1].split("\n"):
                    out.append(prefix + line)
                    prefix = rest
            elif block[0] == "list":
                for marker, content in block[1]:
                    self.lines(content, prefix + marker + " ", rest + " " * (len(marker) + 1), out, item=True)
                    prefix = rest
            else:  # quote
                self.lines(block[1], prefix + "> ", rest + "> ", out)
            prefix = rest

    def element(self, el, out: list[str]) -> None:
        handler = _HANDLERS.get(el.tag) if isinstance(el.tag, str) else None
        if handler is None:
            self.children(el, out)
        else:
            handler(self, el, out)

    def block(self, el, out: list[str]) -> None:
        out.append(BREAK)
        self.children(el, out)
        out.append(BREAK)

    def skip(self, el, out: list[str]) -> None:
        pass

    def br(self, el, out: list[str]) -> None:
        out.append(HARD)

    def spaced(self, el, out: list[str]) -> None:
        """A form control's text: a box of its own on screen, so never run together with its neighbours."""
        out.append(" ")
        self.children(el, out)
        out.append(" ")

    def hr(self, el, out: list[str]) -> None:
        out.append(BREAK + ("" if self.flat else "---") + BREAK)

    def heading(self, el, out: list[str]) -> None:
        if self.flat:
            self.block(el, out)
            return
        inner: list[str] = []
        self.flat += 1
        self.children(el, inner)
        self.flat -= 1
        text = _one_line("".join(inner))
        out.append(BREAK)
        if text:
            out.append("#" * int(el.tag[1]) + " " + text)
            out.append(BREAK)

    def emphasis(self, el, out: list[str], mark: str) -> None:
        if self.marked:
            self.children(el, out)
            return
        inner: list[str] = []
        self.marked += 1
        self.children(el, inner)
        self.marked -= 1
        text = "".join(inner)
        if BREAK in text or NL in text or HARD in text:  # blocks inside: marks cannot span them
            out.append(text)
        else:
            _wrap(_glued_into_marks(out, text) + text, mark, out)

    def strike(self, el, out: list[str]) -> None:
        self.emphasis(el, out, "~~")

    def strong(self, el, out: list[str]) -> None:
        self.emphasis(el, out, "**")

    def em(self, el, out: list[str]) -> None:
        self.emphasis(el, out, "*")

    def code(self, el, out: list[str]) -> None:
        if self.marked:
            self.children(el, out)
            return
        inner: list[str] = []
        self.marked += 1
        self.children(el, inner)
        self.marked -= 1
        text = "".join(inner)
        if BREAK in text or NL in text:
            out.append(text)
            return
        core = _one_line(text)
        if not core:
            out.append(text)
            return
        ticks = "`" * (max((len(run) for run in _BACKTICKS.findall(core)), default=0) + 1)
        pad = " " if core[0] == "`" or core[-1] == "`" else ""
        lead = " " if text[0] in _WS_CHARS else ""
        trail = " " if text[-1] in _WS_CHARS else ""
        out.append(f"{lead}{ticks}{pad}{core}{pad}{ticks}{trail}")

    def pre(self, el, out: list[str]) -> None:
        if self.flat:
            self.block(el, out)
            return
        for a in el.iter("a"):  # written as code, but still listed
            href = listed_link(a.get("href") or "")
            if href is not None:
                self.links.setdefault(href, None)
        code = el.text_content().strip("\n")
        if not code.strip():
            return
        fence = "`" * max(3, max((len(run) for run in _BACKTICKS.findall(code)), default=0) + 1)
        self.keep(("text", f"{fence}\n{code}\n{fence}"), out)

    def link(self, el, out: list[str]) -> None:
        href = el.get("href")
        if href is not None:
            listed = listed_link(href)
            if listed is not None:
                self.links.setdefault(listed, None)
            tabindex = el.get("tabindex")
            if tabindex is not None and tabindex.strip() == "-1":  # a facet or duplicate chip: its text only
                self.unlinked += 1
                self.children(el, out)
                return
        if len(el):
            inner: list[str] = []
            self.flat += 1
            self.children(el, inner)
            self.flat -= 1
            text = "".join(inner)
        else:  # most links: one text node
            text = el.text or ""
        target = _link_target(href)
        if target is None:  # no target, or one the policy refuses: the text stays
            out.append(text)
            return
        label = _one_line(text)
        if not label and _hidden(el):  # a heading's permalink icon: nothing to read, nothing to name
            return
        if (not label or OPEN in label) and href.strip():
            label = _named(el, text, label)
        if not label:
            return
        lead = " " if text and text[0] in _WS_CHARS else ""
        trail = " " if text and text[-1] in _WS_CHARS else ""
        if label == target and target.startswith(("http://", "https://")) and link_destination(target) == target:
            out.append(f"{lead}{ANGLE}{target.replace('&', AMP)}>{trail}")
        else:
            # its own bracket; square brackets as written ("?subject=[php-developer] Your name"): a destination
            # cannot end the link's text, so an escape would only change the address a reader or a search sees
            destination = (link_destination(target).replace("&", AMP).replace("<", ANGLE)
                           .replace("[", OPEN).replace("]", CLOSE))
            out.append(f"{lead}{OPEN}{label}{CLOSE}({destination}){trail}")

    def image(self, el, out: list[str]) -> None:
        alt = el.get("alt")
        alt = _one_line(alt) if alt else ""
        src = el.get("src")
        target = None if src is None else src if _plain_url(src) else safe_target(src, IMAGE_SCHEMES)
        out.append(alt if target is None else f"!{OPEN}{alt}{CLOSE}({target.replace('&', AMP)})")

    def quote(self, el, out: list[str]) -> None:
        if self.flat:
            self.block(el, out)
            return
        inner: list[str] = []
        self.children(el, inner)
        paragraphs = _paragraphs(inner)
        if paragraphs:
            self.keep(("quote", paragraphs), out)

    def list(self, el, out: list[str]) -> None:
        if self.flat:
            self.block(el, out)  # its items are blocks too
            return
        number = _span(el, "start", 10**9) if el.tag == "ol" else 0
        ordered = el.tag == "ol"
        items = []
        lead: list[str] = []
        if el.text and not el.text.isspace():
            lead.append(el.text)
        for child in el:
            inner: list[str] = []
            if child.tag == "li":
                self.children(child, inner)
            elif isinstance(child.tag, str):
                self.element(child, inner)
            if child.tail and not child.tail.isspace():
                inner.append(child.tail)
            paragraphs = _paragraphs(inner)
            if not paragraphs:
                continue
            items.append((f"{number}." if ordered else "-", paragraphs))
            number += 1
        if lead:
            out.append(BREAK)
            out.extend(lead)
        if items:
            self.keep(("list", items), out)

    def table(self, el, out: list[str]) -> None:
        if self.flat:
            self.block(el, out)  # its rows and cells are blocks too
            return
        rows: list[list[tuple[str, int, int]]] = []
        out.append(BREAK)
        for child in el:
            tag = child.tag
            if tag == "tr":
                rows.append(self.row(child))
            elif tag in ("thead", "tbody", "tfoot"):
                for tr in child:
                    if tr.tag == "tr":
                        rows.append(self.row(tr))
                    elif isinstance(tr.tag, str):  # stray content: kept before the table, not lost
                        self.element(tr, out)
            elif isinstance(tag, str):  # a caption, or stray content
                self.block(child, out)
        grid = _grid(rows)
        if grid:
            width = max(len(row) for row in grid)
            lines = ["| " + " | ".join(row + [""] * (width - len(row))) + " |" for row in grid]
            lines.insert(1, "| " + " | ".join(["---"] * width) + " |")
            self.keep(("text", "\n".join(lines)), out)
        out.append(BREAK)

    def row(self, tr) -> list[tuple[str, int, int]]:
        cells = []
        for cell in tr:
            if cell.tag == "td" or cell.tag == "th":
                inner: list[str] = []
                self.flat += 1
                self.children(cell, inner)
                self.flat -= 1
                text = _one_line("".join(inner)).replace("|", BACKSLASH + "|")
                cells.append((text, _span(cell, "colspan", _MAX_COLSPAN), _span(cell, "rowspan", _MAX_ROWSPAN)))
        return cells


def _named(a, text: str, label: str) -> str:
    """The label of a link whose text is blank (an image without alt text does not count; one with alt text does):
    its title, aria-label or URL."""
    if label and (a.text_content() if len(a) else text).strip(_XML_SPACE):
        return label
    if any((img.get("alt") or "").strip() for img in a.iter("img")):
        return label
    return _one_line((a.get("title") or a.get("aria-label") or "").strip() or a.get("href"))


def _grid(rows: list[list[tuple[str, int, int]]]) -> list[list[str]]:
    """padded_grid, or [] when every cell is empty."""
    grid = padded_grid(rows)
    return grid if any(any(row) for row in grid) else []


def padded_grid(rows: list[list[tuple[str, int, int]]]) -> list[list[str]]:
    """Rows of (text, colspan, rowspan) as rows of cell texts, colspans and rowspans padded by empty cells: the one
    table layout both Markdown writers share."""
    grid: list[list[str]] = []
    carried: dict[int, int] = {}  # column -> rows still covered by a rowspan from above
    for cells in rows:
        row: list[str] = []
        col = 0
        for text, colspan, rowspan in cells:
            while carried.get(col, 0) > 0:
                row.append("")
                carried[col] -= 1
                col += 1
            row.append(text)
            row.extend([""] * (colspan - 1))
            if rowspan > 1:
                for c in range(col, col + colspan):
                    carried[c] = rowspan - 1
            col += colspan
        last = max((c for c, left in carried.items() if left > 0), default=-1)
        while col <= last:
            if carried.get(col, 0) > 0:
                carried[col] -= 1
            row.append("")
            col += 1
        if row:
            grid.append(row)
    return grid


_HANDLERS = {tag: MarkdownWriter.block for tag in BLOCK_TAGS}
_HANDLERS.update({f"h{level}": MarkdownWriter.heading for level in range(1, 7)})
_HANDLERS.update({tag: MarkdownWriter.skip for tag in _SKIPPED})
_HANDLERS.update({tag: MarkdownWriter.strong for tag in ("strong", "b")})
_HANDLERS.update({tag: MarkdownWriter.em for tag in ("em", "i")})
_HANDLERS.update({tag: MarkdownWriter.strike for tag in ("s", "del", "strike")})
_HANDLERS.update({tag: MarkdownWriter.spaced for tag in ("label", "select", "option", "textarea", "button")})
_HANDLERS.update({tag: MarkdownWriter.code for tag in ("code", "kbd", "samp", "tt")})
_MARKING = frozenset((MarkdownWriter.strong, MarkdownWriter.em, MarkdownWriter.strike))
_HANDLERS.update({tag: MarkdownWriter.list for tag in ("ul", "ol")})
_HANDLERS.update({etree.Comment: MarkdownWriter.skip, etree.ProcessingInstruction: MarkdownWriter.skip, etree.Entity: MarkdownWriter.skip})
_HANDLERS.update({"br": MarkdownWriter.br, "hr": MarkdownWriter.hr, "pre": MarkdownWriter.pre, "a": MarkdownWriter.link, "img": MarkdownWriter.image,
                  "blockquote": MarkdownWriter.quote, "table": MarkdownWriter.table})
