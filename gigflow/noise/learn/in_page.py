"""Links that jump within the page (issue #23, class CD).

A header's "Apply now" may lead to a section of the same page (``#we-offer``, the job's own text further down), not
to an application. Preparation writes every link absolute, so such a target reads as the page's own address with a
fragment, and the rules took it for a way to apply. A link whose target is the page's own URL (fragment aside) with
an empty fragment or one naming an element of the page (its ``id`` or an anchor's ``name``) is in-page navigation:
no apply fact, unless it leads to the page's application: the element it names holds a form (the application form
below the job) or the fragment names one ("Jetzt bewerben" to ``#bewerbung``). Pure functions over lxml trees;
learning only.
"""

from __future__ import annotations

import re

# A fragment naming the application it leads to ("#apply", "#bewerbung", "#application-form", "#candidature").
_APPLICATION = re.compile(r"appl(?:y|ication)|bewerb|candidat|postul|sollicit|hakemus", re.I)


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
        if _APPLICATION.search(fragment):
            continue
        named = root.xpath("//*[@id=$f or (self::a and @name=$f)]", f=fragment) if fragment else []
        if fragment and not named:
            continue  # names nothing on this page: judged as written
        if not any(el.find(".//form") is not None or el.tag == "form" for el in named):
            found.add(href)
    return frozenset(found)
