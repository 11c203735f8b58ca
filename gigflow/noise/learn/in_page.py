"""Links that jump within the page (issue #23, class CD).

A header's "Apply now" may lead to a section of the same page (``#we-offer``, the job's own text further down), not
to an application. Preparation writes every link absolute, so such a target reads as the page's own address with a
fragment, and the rules took it for a way to apply. A link whose target is the page's own URL (fragment aside) with
an empty fragment or one naming an element of the page (its ``id`` or an anchor's ``name``) is in-page navigation:
no apply fact. Pure functions over lxml trees; learning only.
"""

from __future__ import annotations


def _bare(url: str) -> str:
    return url.split("#", 1)[0].rstrip("/")


def in_page_targets(region, page_url: str | None) -> frozenset[str]:
    """The link targets in ``region`` that jump within the page at ``page_url``."""
    if not page_url:
        return frozenset()
    page = _bare(page_url.strip())
    root = region.getroottree().getroot()
    found = set()
    for a in region.iter("a"):
        href = (a.get("href") or "").strip()
        target, sep, fragment = href.partition("#")
        if not sep or target.rstrip("/") != page:
            continue
        if not fragment or root.xpath("//*[@id=$f or (self::a and @name=$f)]", f=fragment):
            found.add(href)
    return frozenset(found)
