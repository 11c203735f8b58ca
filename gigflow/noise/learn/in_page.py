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
from urllib.parse import urlsplit

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
        if not any(_leads_to_a_form(el) for el in named):
            found.add(href)
    return frozenset(found)


def _leads_to_a_form(el) -> bool:
    """The element a jump names holds a form and not the page's main heading: a jump to an element around the
    whole page (a skip link to ``<main>``, which holds the job's ``<h1>`` as well as its application form) is no
    way to apply (EB)."""
    holds_form = el.tag == "form" or el.find(".//form") is not None
    return holds_form and (el.tag == "h1" or el.find(".//h1") is None)


def _path_parts(url: str):
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    return parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/"), parts.query, parts.fragment


def sibling_page_targets(region, page_url: str | None) -> frozenset[str]:
    """The link targets in ``region`` that lead to the page at ``page_url`` itself or to another page beside it
    (same host, same directory, another last path segment; no query or fragment): the site's postings (EA).

    Their apply words come from the site's own addresses ("/recruit/apply/<job>" on every posting), not from
    an action: such a target is no way to apply for this job, unless its own last segment says apply
    ("/jobs/apply" beside "/jobs/engineer")."""
    page = _path_parts(page_url or "")
    if page is None or not page[2]:
        return frozenset()
    scheme, host, path, _query, _fragment = page
    directory = path.rsplit("/", 1)[0]
    found = set()
    for a in region.iter("a"):
        href = (a.get("href") or "").strip()
        target = _path_parts(href)
        if target is None or target[3] or target[4] or target[:2] != (scheme, host):
            continue
        head, _, last = target[2].rpartition("/")
        if target[2] == path or head == directory and last and not _APPLICATION.search(last):
            found.add(href)
    return frozenset(found)
