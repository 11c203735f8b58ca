"""Candidate regions: what the usual header/nav/footer/main-content cleanup would remove, and nothing else."""

from __future__ import annotations

import re

from lxml import etree

CANDIDATE_TAGS = frozenset({"header", "footer", "nav", "aside"})
CANDIDATE_ROLES = frozenset({"banner", "navigation", "contentinfo", "complementary"})
# Class/id conventions for headers, navbars, footers, sidebars, menus, breadcrumbs, cookie and consent banners,
# social and share blocks, language selectors, modals, popups, widgets and ads. Matched as whole tokens
# (split on spaces, '-' and '_'), so "shared" or "header-less" words inside content names do not count.
CANDIDATE_TOKENS = frozenset({
    "header", "masthead", "topbar", "banner", "navbar", "nav", "navigation", "menu", "megamenu", "footer", "sidebar",
    "aside", "breadcrumb", "breadcrumbs", "cookie", "cookies", "consent", "gdpr", "social", "share", "sharing",
    "lang", "language", "languages", "modal", "popup", "overlay", "widget", "ad", "ads", "advert", "advertisement",
})
_TOKEN_SPLIT = re.compile(r"[\s_\-]+")


def is_landmark(el) -> bool:
    """A header, footer, nav or aside by its tag or ARIA role."""
    return isinstance(el.tag, str) and (el.tag in CANDIDATE_TAGS or
                                        (el.get("role") or "").strip().lower() in CANDIDATE_ROLES)


# Class/id tokens that name a whole page landmark (not a widget inside the job): a div with class "footer" is
# the site's footer as much as a <footer> is.
LANDMARK_TOKENS = frozenset({"header", "masthead", "topbar", "navbar", "nav", "navigation", "menu", "megamenu",
                             "footer", "sidebar", "breadcrumb", "breadcrumbs", "cookie", "cookies", "consent",
                             "gdpr"})


def is_named_landmark(el) -> bool:
    """A landmark by its tag or ARIA role, or by a class/id token that names one (``div.footer``)."""
    if is_landmark(el):
        return True
    if not isinstance(el.tag, str):
        return False
    names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
    return any(token in LANDMARK_TOKENS for token in _TOKEN_SPLIT.split(names) if token)


def is_breadcrumb(el) -> bool:
    """A breadcrumb by its class or id token, or its ARIA label ("Home / Jobs / <this job>")."""
    if not isinstance(el.tag, str):
        return False
    names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
    return (any(token in ("breadcrumb", "breadcrumbs") for token in _TOKEN_SPLIT.split(names) if token)
            or "breadcrumb" in (el.get("aria-label") or "").lower())


def is_candidate(el) -> bool:
    if not isinstance(el.tag, str):
        return False
    if el.tag in CANDIDATE_TAGS or (el.get("role") or "").strip().lower() in CANDIDATE_ROLES:
        return True
    names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
    return any(token in CANDIDATE_TOKENS for token in _TOKEN_SPLIT.split(names) if token)


def candidate_regions(root) -> list:
    """Outermost candidate regions in document order: a candidate inside another candidate is part of it."""
    body = root.find("body")
    start = body if body is not None else root
    found = []
    walker = etree.iterwalk(start, events=("start",))
    for _event, el in walker:
        if el is not start and is_candidate(el):
            found.append(el)
            walker.skip_subtree()
    return found


# Elements that mark words inside a sentence, not a block of their own.
PHRASING_TAGS = frozenset({"b", "strong", "em", "i", "u", "s", "mark", "small", "code", "sub", "sup", "abbr", "span",
                           "time", "var", "kbd", "q", "cite", "dfn"})


def in_sentence(el) -> bool:
    """Words marked inside their parent's own sentence ("<b>80</b>% of time is on <b>open source</b>."), and a link
    the sentence runs on from in lower case ("<a>Acme</a> needs a designer"): removing one would cut the sentence.
    A link before a separator or a sign ("Jobs → Welder", "Terms & Privacy © 2024") is no part of one."""
    parent = el.getparent()
    if parent is None:
        return False
    if el.tag == "a":
        after = (el.tail or "").lstrip()
        return bool(after) and after[0].isalpha() and after[0].islower() and bool(el.text_content().strip())
    if el.tag not in PHRASING_TAGS:
        return False
    return bool((parent.text or "").strip()) or any((child.tail or "").strip() for child in parent)


def region_parts(region) -> list:
    """The child elements of a region that show something in Markdown (text, links or images).

    Tried on their own only when the whole region cannot be learned; they stay inside a candidate region,
    so ordinary page content is still never classified. Words marked inside the region's own sentence
    ("<b>80</b>% of time is on <b>open source</b>.") are no part: removing one would cut the sentence (GI).
    """
    return [child for child in region if isinstance(child.tag, str) and not in_sentence(child)
            and (child.text_content().strip() or child.tag in ("a", "img") or child.find(".//a") is not None
                 or child.find(".//img") is not None)]


def all_candidates(root) -> set:
    """Every candidate at any depth: a rule's selector must match one of these or an element inside one."""
    return {el for el in root.iter(etree.Element) if is_candidate(el)}


def is_footer_named(el) -> bool:
    """An element whose class or id names a footer (``div.site-footer``, ``#footer``)."""
    if not isinstance(el.tag, str):
        return False
    names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
    return "footer" in _TOKEN_SPLIT.split(names)


def in_site_footer(region):
    """The site footer the region is or sits in, else None: a <footer> or role="contentinfo" that is not inside
    an <article> or <main> (an article's own footer holds its details), or an element whose class or id names a
    footer. Only regions the samples share get here."""
    footer = None
    for node in (region, *region.iterancestors()):
        if node.tag in ("article", "main") or (node.get("role") or "").strip().lower() in ("main", "article"):
            return None
        if node.tag == "footer" or (node.get("role") or "").strip().lower() == "contentinfo" or is_footer_named(node):
            footer = node  # the outermost: a footer's parts name the employer in a sibling (its legal line)
    return footer
