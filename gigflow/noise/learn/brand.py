"""The site's name written as text in its header (issue #23, AU): a text logo, where no image alt states it.

A site header often shows its name as styled words beside (or instead of) a logo image: "<div>Acme</div>
<a href="/"><div>Labs</div></a>", the words of the block around the link to the home page. It names the site's
owner as a logo's alt text does (``owner.logo_alts``), so the owner check reads it too; where nothing else
states the name, that header part then stays as the employer. Only a block of a name's size whose every link goes
to the home page counts: a menu ("Home", "Jobs", "About") holds links to other pages.

Pure functions over a prepared tree; learning only.
"""

from __future__ import annotations

from itertools import islice
from urllib.parse import urlsplit

from lxml import etree

from gigflow.noise.learn.candidates import _TOKEN_SPLIT, is_landmark

# Class/id tokens of a page header (not a nav or a footer).
HEADER_TOKENS = frozenset({"header", "masthead", "topbar", "banner", "brand", "logo"})
MAX_BRAND_WORDS = 6
MAX_HEADERS = 3  # the site's header comes first
MAX_LINKS = 50  # links looked at in one header (bounded on hostile pages)


def _norm(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def _words(el) -> str:
    """An element's text with a space between its parts: "<div>Acme</div><div>Labs</div>" reads "Acme Labs"."""
    return _norm(" ".join(el.itertext()))


def _home_link(a) -> bool:
    try:
        parts = urlsplit((a.get("href") or "").strip())
    except ValueError:
        return False
    return parts.path in ("", "/") and not parts.query and not parts.fragment and bool(a.get("href"))


def _is_header(el) -> bool:
    if el.tag == "header" or (el.get("role") or "").strip().lower() == "banner":
        return True
    if is_landmark(el):
        return False  # a nav, a footer, an aside
    names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
    return any(token in HEADER_TOKENS for token in _TOKEN_SPLIT.split(names) if token)


def _headers(root):
    for el in root.iter(etree.Element):
        if _is_header(el) and not any(node.tag in ("main", "article") or
                                      (node.get("role") or "").strip().lower() in ("main", "article")
                                      for node in el.iterancestors()):
            yield el


def header_brand_texts(root) -> list[str]:
    """The text of the site's brand block in its header: the outermost block around the header's first link to
    the home page that holds a name's words at most (MAX_BRAND_WORDS) and no link to another page; [] when there
    is none (an image logo only, a menu around it)."""
    for header in islice(_headers(root), MAX_HEADERS):
        home = next((a for a in islice(header.iter("a"), MAX_LINKS) if _home_link(a)), None)
        if home is None or any(node.tag == "li" for node in home.iterancestors()):
            continue  # a menu's "Home" item is no brand
        brand = ""
        node = home
        while node is not None:
            text = _words(node)
            if len(text.split()) > MAX_BRAND_WORDS or not all(_home_link(a) for a in node.iter("a")):
                break
            brand = text or brand
            if node is header:
                break
            node = node.getparent()
        return [brand] if brand else []
    return []


def name_across_parts(region, parts: list, names: tuple[str, ...]) -> bool:
    """Whether ``region``'s parts state one of ``names`` (the employer) only together: "Acme" in one block and
    "Labs" in the next, so that no part alone names "Acme Labs". Split for a second review, each part would go
    for naming nothing, and the name with them; such a region is kept whole."""
    # The parts' words together, not the region's: words of its own beside the parts (a footer line's text beside
    # its links) stay whatever happens to the parts.
    together = " ".join(_words(part) for part in parts).casefold()
    for name in names:
        wanted = _norm(name).casefold()
        if len(wanted) >= 3 and wanted in together and not any(
                wanted in _words(part).casefold() for part in parts):
            return True
    return False
