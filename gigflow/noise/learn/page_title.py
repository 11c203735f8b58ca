"""The posting's title as each sample states it, and whether a region is the only place that states it.

Self-references make a page's own title a placeholder when regions are compared (a breadcrumb or a share text
naming the posting is the same template on every page). A board's header bar that shows the posting's title
("All Jobs" and the title, no <h1> anywhere) then looks the same on every sample too, and nothing else in it is
a job fact: it went, with the page's only visible title (GP). The title is the first job fact; a region that
holds every visible statement of it keeps it (its other parts are still reviewed on their own)."""

from __future__ import annotations

import re
from collections import Counter

from gigflow.noise.learn.owner import TITLE_SEPARATORS
from gigflow.noise.signature import page_titles

TITLE_MIN_CHARS = 4
TITLE_MAX_CHARS = 300  # no posting's name is longer (a hostile <title> of a megabyte is none)


def _norm(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def posting_titles(roots) -> dict:
    """root -> ((text, its count in the page's body), ...): the texts that name that sample's posting, its <h1>
    and its document title, without the parts that two or more samples' titles share (the site's name,
    "Careers"). A text the samples share names no posting. Each body is read once, here."""
    titles = {root: tuple(_norm(t) for t in page_titles(root)) for root in roots}
    parts = {root: [p.strip() for p in TITLE_SEPARATORS.split(title) if p.strip()] if title else []
             for root, (_h1, title) in titles.items()}
    shared = Counter(p.casefold() for root in roots for p in set(parts[root]))
    shared.update(h1.casefold() for h1, _title in titles.values() if h1)
    out = {}
    for root, (h1, title) in titles.items():
        named = [t for t in dict.fromkeys([title] + parts[root] + [h1])
                 if TITLE_MIN_CHARS <= len(t) <= TITLE_MAX_CHARS and shared[t.casefold()] < 2]
        body = root.find("body")
        whole = _words(body if body is not None else root) if named else ""
        out[root] = tuple((t, _count(whole, t)) for t in named)
    return out


def _words(element) -> str:
    """The element's text with its text nodes apart ("<a>All Jobs</a><div>Welder</div>" is no "JobsWelder")."""
    return _norm(" ".join(element.itertext()))


def _count(text: str, title: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(title)}(?!\w)", text))


def stated_title(region, titles: tuple[tuple[str, int], ...]) -> str:
    """The posting title ``region`` states where no other part of its page's body does, or '' (``titles``: its
    page's entry of ``posting_titles``)."""
    if not titles:
        return ""
    text = _words(region)
    return next((title for title, in_body in titles if (inside := _count(text, title)) and in_body <= inside), "")
