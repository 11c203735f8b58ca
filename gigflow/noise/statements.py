"""Statements: the lines a reader sees inside a region, each removable on its own.

Rules remove whole elements. A template region kept for one fact often says more in the same element: a footer's
"© 2026 Acme GmbH. All rights reserved.<br>We use cookies …", "© 2026 Acme · Made by Some Agency". A statement
is a run of inline content between block boundaries (a block element, a ``<br>``) and separators (``|``, ``·``,
``•`` in text, or an inline element holding only one). Learning judges a kept region's statements one by one and
stores those without a fact by their text (``RemovalRule.drop_statements``); apply removes exactly those from the
region, with the separator beside each, and leaves the rest of the element as it is.

The text of a statement is compared as region signatures compare text: whitespace collapsed, the page's title as
a placeholder and digits as one digit (``SelfReferences.text``), so a copyright year does not make it another
statement. Pure functions over lxml trees; shared by learning and preparation.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from lxml import html as lxml_html

from gigflow.noise.signature import NO_REFERENCES, SelfReferences

# What ends a line: block elements and line breaks (controls and labels are statements of their own too).
BREAK_TAGS = frozenset({"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "table",
                        "tbody", "thead", "tfoot", "section", "article", "header", "footer", "nav", "aside", "main",
                        "br", "dd", "dt", "dl", "form", "button", "label", "option", "select", "textarea",
                        "blockquote", "figure", "figcaption", "address", "center", "details", "summary", "fieldset",
                        "legend", "hr", "menu", "pre"})
# Separators between statements on one line: "© 2026 Acme | Imprint", "Acme · Made by Agency", "Mail • Phone".
_SEPARATOR = re.compile(r"\s*[|·•]\s*")
# A copyright notice: the sign, "(c)", the word, or "all rights reserved" in the common languages.
COPYRIGHT_MARK = re.compile(r"©|\(c\)|\bcopyright\b|\ball rights reserved\b|\balle rechte vorbehalten\b|"
                            r"\btous droits réservés\b|\btodos los derechos reservados\b|"
                            r"\btutti i diritti riservati\b|\balle rechten voorbehouden\b|"
                            r"\bwszelkie prawa zastrzeżone\b|\balla rättigheter förbehållna\b|"
                            r"\bkaikki oikeudet pidätetään\b|все права защищены|版权所有|無断転載", re.I)
# After a copyright notice in the same text, each further sentence is a statement of its own ("© 2024 Acme. This
# work is licensed under …"): the notice names the employer, a licence or a credit after it does not.
# Put right after a full stop: it is no end of a sentence or a name when it closes an initial, "Co", "Pvt" or "Pty"
# ("© 2025 R. Acme GmbH & Co. KG", "© Acme Pvt. Ltd." are one name).
NOT_AN_ABBREVIATION = r"(?<!\b[^\W\d_]\.)(?<!\b[Cc]o\.)(?<!\b[Pp]vt\.)(?<!\b[Pp]ty\.)"
_SENTENCE_END = re.compile(r"(?<=[.!?])" + NOT_AN_ABBREVIATION + r"\s+(?=[A-ZÀ-Þ])")
_ONLY_SEPARATORS = re.compile(r"[\s|·•]+")
# A statement this long is a text, not a line: never compared or removed on its own (bounded on hostile pages).
MAX_STATEMENT_CHARS = 2000
MAX_STATEMENTS = 60


@dataclass
class Piece:
    """Part of a statement: a slice of an element's text or tail, or a whole inline element."""

    node: object
    where: str  # "text", "tail" or "element"
    start: int = 0
    end: int = 0

    def shown(self) -> str:
        if self.where == "element":
            return self.node.text_content()
        value = self.node.text if self.where == "text" else self.node.tail
        return (value or "")[self.start:self.end]


@dataclass
class Statement:
    pieces: list[Piece] = field(default_factory=list)
    container: object = None  # the block element the statement's line is in
    separator_before: Piece | None = None
    separator_after: Piece | None = None
    after_break: bool = False  # a line break or block boundary (not a separator) comes before it

    @property
    def text(self) -> str:
        return " ".join("".join(piece.shown() for piece in self.pieces).split())

    def key(self, refs: SelfReferences = NO_REFERENCES) -> str:
        """What a rule stores of the statement: its text with the page's title and digits normalised."""
        return refs.text(self.text)

    def links(self) -> list:
        found = []
        for piece in self.pieces:
            if piece.where == "element":
                found += [a for a in piece.node.iter("a")]
        return found

    def elements(self) -> list:
        return [piece.node for piece in self.pieces if piece.where == "element"]


_BREAK = object()
_SPLIT = object()


def _holds_break(el) -> bool:
    return any(isinstance(d.tag, str) and d.tag in BREAK_TAGS for d in el.iterdescendants())


def _tokens(el, container, out: list) -> None:
    """The region's content in document order: Pieces, separators (("sep", Piece)), _BREAK, with containers."""
    _text_tokens(el, "text", el.text, container, out)
    for child in el:
        if isinstance(child.tag, str):
            if child.tag in BREAK_TAGS:
                out.append(_BREAK)
                if child.tag != "br":
                    _tokens(child, child, out)
                    out.append(_BREAK)
            elif _holds_break(child):
                _tokens(child, container, out)  # an inline wrapper around lines: its lines are the region's
            else:
                shown = child.text_content()
                if shown.strip() and _ONLY_SEPARATORS.fullmatch(shown):
                    out.append(("sep", Piece(child, "element"), container))
                elif _closing_legal_link(el, child, shown):
                    out += [_SPLIT, (Piece(child, "element"), container), _SPLIT]
                else:
                    out.append((Piece(child, "element"), container))
        _text_tokens(child, "tail", child.tail, container, out)


# A link to a legal page ("Privacy Policy", "Termes et conditions", "Impressum") that ends a line after a finished
# statement ("© 2019 Acme. <a>Privacy Policy</a>", "© Acme - <a>Terms</a>") is a statement of its own: the
# copyright line beside it is the employer's, the link is template.
_LEGAL_LINK = re.compile(r"privacy|policy|policies|\bterms\b|legal|gdpr|cookie|imprint|impressum|datenschutz|"
                         r"disclaimer|conditions|mentions l[ée]gales|confidentialit[ée]|donn[ée]es personnelles|"
                         r"voorwaarden|privacybeleid|privacidad|aviso legal|\bAGB\b|nutzungsbedingungen|"
                         r"colofon|colophon", re.I)
LEGAL_LINK_MAX_WORDS = 5
_STOPS = ".-–—,:;"


def _separators(value: str) -> list:
    """Where a text splits into statements: its separators, and the sentence ends after a copyright notice."""
    found = list(_SEPARATOR.finditer(value))
    notice = COPYRIGHT_MARK.search(value)
    if notice:
        ends = list(_SENTENCE_END.finditer(value, notice.end()))
        for i, end in enumerate(ends):
            following = value[end.end():ends[i + 1].start() if i + 1 < len(ends) else len(value)]
            # "© 2026 Acme. All rights reserved." is one notice: a sentence that is itself one stays with it.
            if not COPYRIGHT_MARK.search(following) and not any(s.start() <= end.start() < s.end() for s in found):
                found.append(end)
        found.sort(key=lambda m: m.start())
    return found


def _closing_legal_link(parent, link, shown: str) -> bool:
    if link.tag != "a" or not 0 < len(shown.split()) <= LEGAL_LINK_MAX_WORDS or not _LEGAL_LINK.search(shown):
        return False
    before = link.getprevious()
    lead = (before.tail if before is not None else parent.text) or ""
    if lead.strip() and lead.rstrip()[-1] not in _STOPS:
        return False  # inside a sentence ("read our <a>privacy policy</a> first")
    after = link.getnext()
    return not (link.tail or "").strip() and (after is None or after.tag == "br")


def _text_tokens(node, where: str, value: str | None, container, out: list) -> None:
    if not value:
        return
    at = 0
    for match in _separators(value):
        if match.start() > at:
            out.append((Piece(node, where, at, match.start()), container))
        out.append(("sep", Piece(node, where, match.start(), match.end()), container))
        at = match.end()
    if at < len(value):
        out.append((Piece(node, where, at, len(value)), container))


def statements(region) -> list[Statement]:
    """The region's statements in document order (those with visible text), at most MAX_STATEMENTS of them."""
    tokens: list = []
    _tokens(region, region, tokens)
    found: list[Statement] = []
    current = Statement()
    last_separator = None
    broke = True

    def close() -> None:
        nonlocal current, last_separator
        if current.text:
            found.append(current)
            last_separator = None
        current = Statement()

    for token in tokens:
        if token is _BREAK:
            close()
            last_separator, broke = None, True
        elif token is _SPLIT:  # a statement of its own on the same line, no separator between
            close()
            last_separator, broke = None, False
        elif token[0] == "sep":
            if current.text:
                current.separator_after = token[1]
            close()
            last_separator, broke = token[1], False
        else:
            piece, container = token
            if not current.pieces:
                current.container, current.separator_before, current.after_break = container, last_separator, broke
            current.pieces.append(piece)
    close()
    return [s for s in found if len(s.text) <= MAX_STATEMENT_CHARS][:MAX_STATEMENTS]


def drop_statements(region, keys, refs: SelfReferences = NO_REFERENCES) -> list[str]:
    """Remove from ``region`` the statements whose key is in ``keys``, each with one separator beside it; returns
    the texts removed. Text slices are cut from their text nodes, whole inline elements dropped (their tails kept)."""
    wanted = set(keys)
    doomed = [s for s in statements(region) if s.key(refs) in wanted]
    if not doomed:
        return []
    removed = [s.text for s in doomed]  # read before any cut
    cuts: dict = {}
    elements = []
    used = set()

    def take(piece: Piece) -> None:
        if piece.where == "element":
            elements.append(piece.node)
        else:
            cuts.setdefault((piece.node, piece.where), []).append((piece.start, piece.end))

    for statement in doomed:
        for piece in statement.pieces:
            take(piece)
        for separator in (statement.separator_before, statement.separator_after):
            if separator is not None and id(separator) not in used:
                used.add(id(separator))
                take(separator)
                break
    for (node, where), ranges in cuts.items():
        value = node.text if where == "text" else node.tail
        for start, end in sorted(ranges, reverse=True):
            value = value[:start] + value[end:]
        value = value if value.strip() else (" " if value else "")
        if where == "text":
            node.text = value
        else:
            node.tail = value
    for el in elements:
        if el.getparent() is not None:
            el.drop_tree()
    return removed


def statement_markup(statement: Statement) -> str:
    """The statement as markup, for a reviewer: its text slices (escaped) and its elements."""
    parts = []
    for piece in statement.pieces:
        if piece.where == "element":
            parts.append(lxml_html.tostring(piece.node, encoding="unicode", with_tail=False))
        else:
            parts.append(html.escape(piece.shown(), quote=False))
    return "".join(parts)
