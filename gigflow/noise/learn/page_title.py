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

TITLE_MIN_CHARS = 4
TITLE_MAX_CHARS = 300  # no posting's name is longer (a hostile <title> of a megabyte is none)


def _norm(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def _document_title(root) -> str:
    node = root.find(".//title")
    return _norm(node.text_content()) if node is not None else ""


def _first_h1(root) -> str:
    node = root.find(".//body//h1")
    return _norm(node.text_content()) if node is not None else ""


def posting_titles(roots) -> dict:
    """root -> the texts that name that sample's posting: its <h1> and its document title, without the parts
    that two or more samples' titles share (the site's name, "Careers"). A text the samples share names no
    posting."""
    titles = {root: (_document_title(root), _first_h1(root)) for root in roots}
    parts = {root: [p.strip() for p in TITLE_SEPARATORS.split(title) if p.strip()] if title else []
             for root, (title, _h1) in titles.items()}
    shared = Counter(p.casefold() for root in roots for p in set(parts[root]))
    shared.update(h1.casefold() for _title, h1 in titles.values() if h1)
    out = {}
    for root, (title, h1) in titles.items():
        named = [title] + parts[root] + [h1]
        out[root] = tuple(dict.fromkeys(t for t in named if TITLE_MIN_CHARS <= len(t) <= TITLE_MAX_CHARS
                                        and shared[t.casefold()] < 2))
    return out


def _words(element) -> str:
    """The element's text with its text nodes apart ("<a>All Jobs</a><div>Welder</div>" is no "JobsWelder")."""
    return _norm(" ".join(element.itertext()))


def _count(text: str, title: str) -> int:
    return len(re.findall(rf"(?<!\w){re.escape(title)}(?!\w)", text))


def stated_title(region, titles: tuple[str, ...]) -> str:
    """The posting title ``region`` states where no other part of its page's body does, or ''."""
    if not titles:
        return ""
    text = _words(region)
    inside = [t for t in titles if _count(text, t)]
    if not inside:
        return ""
    root = region.getroottree().getroot()
    body = root.find("body")
    whole = _words(body if body is not None else root)
    return next((t for t in inside if _count(whole, t) <= _count(text, t)), "")
