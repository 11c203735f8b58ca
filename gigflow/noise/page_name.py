"""The page's own name where only a region the noise filter removes states it (issue #23, round 20's FA).

A breadcrumb's current item or a header's "you are here" line is template (signatures read the page's title as a
placeholder), yet on a page without a heading of its own it is the only visible statement of the job's title.
Pure functions over the prepared tree; apply calls them before it removes anything.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from lxml import etree

if TYPE_CHECKING:
    from gigflow.documents.types import PreparationReport


# The page's name as a region states it: a whole element's text, at least this long, that the <title> starts with.
MIN_PAGE_NAME_CHARS = 8


def page_name_only_in(root, regions: list, page_url: str | None) -> tuple:
    """(region, name) when the page's name is stated in a region about to be removed and nowhere else in the body.

    A breadcrumb's current item, a header's "you are here" line: on a page without a heading of its own these
    are the only visible statement of what the page is (its job's title), and a template region that names the
    page it is on is still template. The name is the page's own where its address spells it too (the slug
    ".../tirocinio-in-informatica/"): a site's name in every <title> and header is not. (None, "") when the name
    survives elsewhere, or the page states none."""
    title = root.find(".//title")
    title_text = " ".join((title.text_content() if title is not None else "").split())
    body = root.find(".//body")
    if len(title_text) < MIN_PAGE_NAME_CHARS or body is None or not regions or not page_url:
        return None, ""
    try:
        address = _slug(unquote(urlsplit(page_url).path))
    except ValueError:  # an address the parser refuses spells no name
        return None, ""
    doomed = set(regions)
    for region in regions:
        for el in region.iter():
            if not isinstance(el.tag, str) or len(el):
                continue
            name = " ".join(el.text_content().split())
            slug = _slug(name)
            if len(name) >= MIN_PAGE_NAME_CHARS and len(slug) > 4 and slug in address \
                    and _names_page(name, title_text):
                if not _stated_outside(body, name, doomed):
                    return region, name
                return None, ""
    return None, ""


def _slug(text: str) -> str:
    """Lower-case letters and digits, accents dropped, every other run a hyphen: "Chargé.e de déploiement" ->
    "charge-e-de-deploiement", as URL slugs spell titles."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return "-" + "-".join(_NON_ALNUM.split(plain)).strip("-") + "-"


_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def _names_page(name: str, title_text: str) -> bool:
    """The title is the name, or the name and then a separator ("Engineer | Acme", "Engineer - Acme")."""
    if not title_text.startswith(name):
        return False
    rest = title_text[len(name):]
    return not rest or (rest[0] in " \t" and not rest.strip()[:1].isalnum())


def _stated_outside(body, name: str, doomed: set) -> bool:
    for el in body.iter():
        if not isinstance(el.tag, str) or el in doomed:
            continue
        if any(ancestor in doomed for ancestor in el.iterancestors()):
            continue
        for text in (el.text, el.tail if el is not body else None):
            if text and name in " ".join(text.split()):
                return True
    return False


def keep_page_name(root, region, name: str, report: PreparationReport) -> None:
    """Put the page's name where the removed region stood: a heading when the page has none."""
    heading = etree.Element("h1" if root.find(".//h1") is None else "p")
    heading.text = name
    region.addprevious(heading)
    report.retained("noise-filter", path=root.getroottree().getpath(heading), reason="the page's own name, "
                    "stated only in a removed region", text_length=len(name), text=name)
