"""A board's own blocks in two template versions (issue #23, class CB).

On a job board (the samples' JSON-LD names a different employer on each page) a block identical on every sample
is the operator's, headings and all: no one job's facts are on every page. A board that rebuilt its pages keeps
two versions of its own text ("How to find a job here", "About us": one wording on older postings, another on
newer ones), so no block is on every sample, neither version reaches the quorum, and each stayed as "a heading
inside the job content". A block that pages of *different employers* share verbatim is still no one job's text:
it is found here, learned where two samples or more have it, and judged like the board's other blocks.

Pure functions over the samples' parsed trees; learning only.
"""

from __future__ import annotations

from lxml import etree

from gigflow.noise.learn.template import ITEM_TAGS, MISSING_MIN_WORDS, _tag_path, subtree_hashes
from gigflow.noise.signature import NO_REFERENCES


def _norm(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def _different_employers(mine: frozenset, theirs: frozenset) -> bool:
    return bool(mine) and bool(theirs) and not (mine & theirs)


def blocks_shared_across_employers(roots: list, employers: list[frozenset], refs: list | None = None):
    """For each sample, its outermost blocks (MISSING_MIN_WORDS words at least, no list item, link or cell: a
    requirement two postings share is theirs; sections and paragraphs in a series are blocks) identical (subtree
    hash, tag path from <body>) to one on a sample that names another employer (``employers``: each sample's
    JSON-LD hiring organisations, casefolded), and missing on some sample (a block on every sample is the template
    analysis's).

    Returns ``(found, learn)``, each {sample index: [elements]}: ``found`` every such block (each is a candidate
    on its sample), ``learn`` those to learn from their sample: all of the first sample's, and on a later sample
    those the first sample lacks (the others are learned from the first)."""
    bodies = [r.find("body") if r.find("body") is not None else r for r in roots]
    refs = refs or [NO_REFERENCES] * len(roots)
    hashes = [subtree_hashes(b, r) for b, r in zip(bodies, refs)]
    placed = [{(h, _tag_path(el, body)) for el, h in page.items()} for page, body in zip(hashes, bodies)]
    found: dict[int, list] = {}
    learn: dict[int, list] = {}
    for k, body in enumerate(bodies):
        walker = etree.iterwalk(body, events=("start",))
        for _event, el in walker:
            if not isinstance(el.tag, str) or el is body:
                continue
            key = (hashes[k][el], _tag_path(el, body))
            holders = [j for j in range(len(bodies)) if key in placed[j]]
            if len(holders) == len(bodies):
                walker.skip_subtree()  # on every sample: the template analysis sees it
                continue
            if len(_norm(el.text_content()).split()) < MISSING_MIN_WORDS or el.tag in ITEM_TAGS:
                continue
            if any(_different_employers(employers[k], employers[j]) for j in holders if j != k):
                found.setdefault(k, []).append(el)
                if k == 0 or 0 not in holders:
                    learn.setdefault(k, []).append(el)
                walker.skip_subtree()
    return found, learn
