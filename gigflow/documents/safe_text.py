"""Markdown that is safe to render, by construction.

Stored Markdown is rendered by others (a web view, a job board), so it must never carry markup that was not
structure in the page:

- Text stays text. Characters a CommonMark renderer reads as markup inside text (``\\ < [ ]`` and ``&`` before
  an entity name) are backslash-escaped, so ``&lt;img onerror=...&gt;`` in a page renders as those characters.
  In the HTML path they are swapped for private-use placeholders in the serialized HTML before conversion and
  become escapes after it, so neither converter can undo them.
- No raw HTML: a ``<`` the converter itself writes (an element it passes through) is escaped too; only an
  autolink to an allowed URL keeps its ``<``.
- Links only to http(s), ``mailto:`` and the contact schemes (``tel:``, ``sms:``, the messengers' ``tg:`` and
  ``whatsapp:``: on some boards the only way to apply), images only http(s), after the fetch guard's
  canonicalisation (``gigflow.safety.guard``): a link that fails keeps its text and loses its target. Allowed targets are
  percent-encoded where Markdown would read a character as syntax (parentheses, brackets, quotes, spaces).
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from lxml import etree

from gigflow.safety.guard import CONTACT_SCHEMES, canonical_url, url_problem

LINK_SCHEMES = ("http", "https", "mailto", *CONTACT_SCHEMES)
# Elements besides links and images whose URL a converter may write into the Markdown.
MEDIA_ELEMENTS = ("video", "audio", "source", "track")
IMAGE_SCHEMES = ("http", "https")

_PLACEHOLDERS = {"\\": "\ue020", "<": "\ue021", "[": "\ue022", "]": "\ue023", "&": "\ue024"}
# Placeholder -> escape, by plain replacements (str.translate with a dict goes character by character in Python).
_RESTORE = tuple((ph, "\\" + ch) for ch, ph in _PLACEHOLDERS.items())
_TEXT_SPECIAL = re.compile(r"[\\<\[\]]|&(?=#?[A-Za-z0-9]+;)")
# An http(s) URL with a plain host, no userinfo and only characters that need no encoding in a Markdown target.
PLAIN_WEB_URL = re.compile(r"https?://[A-Za-z0-9.-]+(?::[0-9]{1,5})?(?:[/?#][A-Za-z0-9\-._~!$&+,;=:/?#%]*)?")
# Characters kept as they are in a link target; everything else is percent-encoded.
_URL_SAFE = "/:?#@!$&+,;=%~"
# A target a plain (unbracketed) Markdown destination holds as it is.
_PLAIN_TARGET = re.compile(r"[A-Za-z0-9\-._~!$&+,;=:/?#%@]*")
# A literal "<" with the backslashes before it; escaped unless it opens an autolink to an allowed URL.
# An email autolink's address, matched right after the "<" so that one pass decides it.
_EMAIL = (r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
          r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
_RAW_LT = re.compile(r"(\\*)<(?:(" + _EMAIL + r")>)?")
# Characters of an address that Markdown reads as markup in a link's text.
_LINK_TEXT_SPECIAL = re.compile(r"[\\`*_\[\]<&]")
_AUTOLINK = re.compile(r"<((?:https?|mailto):[^\s<>\\]*)>", re.I)


def escape_text(text: str) -> str:
    """Plain text as Markdown text: every character a renderer would read as markup is escaped."""
    return _TEXT_SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def safe_target(value: str | None, schemes: tuple[str, ...] = LINK_SCHEMES, readable: bool = False) -> str | None:
    """The link target as stored Markdown may carry it, or None when the policy refuses it. ``readable``: only
    what a ``<…>`` destination cannot hold is encoded (see ``link_destination``), the rest stays as written."""
    if not value:
        return None
    if PLAIN_WEB_URL.fullmatch(value):  # the common case, decided without parsing: nothing to refuse or encode
        return value
    url = canonical_url(value)
    if url_problem(url, schemes):
        return None
    if readable:
        return "".join(_encoded(ch) if _unreadable(ch) else ch for ch in url)
    return quote(url, safe=_URL_SAFE)


_HIDDEN = ("Cc", "Cf", "Co", "Cs", "Cn", "Zs", "Zl", "Zp")


def _unreadable(ch: str) -> bool:
    """A character a ``<…>`` destination cannot hold, or one that hides or reorders text (controls, bidi and
    zero-width format characters, separators other than the plain space): it stays percent-encoded."""
    return ch in "<>\\" or (ch != " " and unicodedata.category(ch) in _HIDDEN)


def _encoded(ch: str) -> str:
    return quote(ch, safe="")


def link_destination(target: str) -> str:
    """A safe target as a Markdown link destination. One with characters a plain destination cannot hold (a mail
    link's subject, "?subject=Apply for Engineer (Python)", a path with accents) is written as the page wrote
    it inside ``<…>``, CommonMark's form for such a destination: a reader and a search for the page's address find
    it, a renderer encodes it. ``safe_target(readable=True)`` has encoded every ``<``, ``>``, backslash, line
    break and hidden character, so nothing closes the brackets early."""
    return target if _PLAIN_TARGET.fullmatch(target) else f"<{target}>"


def neutralize_tree(root) -> None:
    """Prepare a tree for conversion (in place): link and image targets checked (then serialize it and pass
    the HTML through ``placeholder_serialized``).

    A link with a refused target keeps its text; an image with a refused source is replaced by its alt text.
    """
    plain = PLAIN_WEB_URL.fullmatch
    refused_images = []
    for el in root.iter("a", "area", "img", "image"):
        is_link = el.tag in ("a", "area")
        name = "href" if is_link else "src"
        value = el.get(name)
        if value is not None and plain(value):  # the common case: nothing to refuse or encode
            continue
        if is_link:
            if value is None:
                continue
            target = safe_target(value)
            if target is None:
                del el.attrib["href"]
            else:
                el.set("href", target)
            continue
        target = safe_target(value, IMAGE_SCHEMES)
        if target is None:
            refused_images.append(el)  # replaced after the walk: removing while iterating would end it early
        else:
            el.set("src", target)
    for img in refused_images:
        _replace_with_text(img, img.get("alt") or "")
    for el in root.iter(*MEDIA_ELEMENTS):  # markdownify writes a video as a link to its src or poster
        for name in ("src", "poster"):
            value = el.get(name)
            if value is not None and not plain(value):
                target = safe_target(value, IMAGE_SCHEMES)
                if target is None:
                    del el.attrib[name]
                else:
                    el.set(name, target)
    etree.strip_attributes(root, "srcset", "data-src")  # the converters read src only; be sure


def _replace_with_text(el, text: str) -> None:
    if el.getparent() is not None:
        el.tail = text + (el.tail or "")
        el.drop_tree()  # lxml.html: the tail stays in the document


# In serialized HTML (after neutralize_tree) text and attribute values hold "<" only as "&lt;", and "[", "]"
# and "\\" only where they are text: link and image targets were percent-encoded. So the placeholders go in
# with plain string replacements, at C speed, before the converter parses the piece.
_SERIALIZED = (("\\", _PLACEHOLDERS["\\"]), ("&lt;", _PLACEHOLDERS["<"]), ("[", _PLACEHOLDERS["["]),
               ("]", _PLACEHOLDERS["]"]))
_SERIALIZED_ENTITY_AMP = re.compile(r"&amp;(?=#?[A-Za-z0-9]+;)")


def placeholder_serialized(html: str) -> str:
    """Serialized HTML with text characters that Markdown reads as markup swapped for placeholders."""
    for char, placeholder in _SERIALIZED:
        if char in html:
            html = html.replace(char, placeholder)
    if "&amp;" in html:
        html = _SERIALIZED_ENTITY_AMP.sub(_PLACEHOLDERS["&"], html)
    return html


def finish_markdown(markdown: str) -> str:
    """After conversion: placeholders become escapes, and any ``<`` the converter wrote itself is escaped unless
    it opens an autolink to an allowed URL (so a converter cannot emit raw HTML)."""
    markdown = escape_raw_html(markdown)
    for placeholder, escaped in _RESTORE:
        if placeholder in markdown:
            markdown = markdown.replace(placeholder, escaped)
    return markdown


def escape_raw_html(markdown: str) -> str:
    """Escape every unescaped ``<`` that does not open an allowed autolink; an email autolink (``<name@host>``,
    which converters write for a mailto link whose text is its address) becomes ``[address](mailto:address)``, so
    the apply-by-email target stays in the Markdown as the page had it."""

    def fix(match: re.Match) -> str:
        slashes, address = match.group(1), match.group(2)
        if len(slashes) % 2:  # already escaped: text
            return match.group(0)
        if address is not None:
            target = safe_target(f"mailto:{address}")
            if target is not None:
                text = _LINK_TEXT_SPECIAL.sub(lambda m: "\\" + m.group(0), address)
                return f"{slashes}[{text}]({target})"
            return f"{slashes}\\<{escape_text(address)}>"
        autolink = _AUTOLINK.match(markdown, match.end() - 1)
        if autolink and safe_target(autolink.group(1)) is not None:
            return match.group(0)
        return slashes + "\\<"

    return _RAW_LT.sub(fix, markdown) if "<" in markdown else markdown
