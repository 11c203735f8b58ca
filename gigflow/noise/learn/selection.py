"""Selectors that find a learned region again: on a quorum of samples, by signature or within bounded variation,
matching at most a few regions on any page."""

from __future__ import annotations

from lxml import html as lxml_html

from gigflow.noise.selectors import InvalidSelectorError, select
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.signature import (SIBLING_POSTINGS_SIGNATURE, destinations, learned_lines, region_signature,
                                     within_variation)


class Signatures:
    """Signatures of sample regions with their page's self-references normalised, computed once per region."""

    def __init__(self, refs):
        self.refs = refs
        self.cache: dict = {}

    def __call__(self, region, page: int) -> str:
        found = self.cache.get(region)
        if found is None:
            found = self.cache[region] = region_signature(region, self.refs[page])
        return found

    def lines(self, region, page: int = 0) -> list:
        """The region's text lines as a rule stores them ([] when too large to compare line by line)."""
        key = ("lines", region)
        if key not in self.cache:
            self.cache[key] = learned_lines(region, self.refs[page])
        return self.cache[key]

    def same(self, region, other, page: int) -> bool:
        """``other`` on sample ``page`` is ``region`` (of the first sample): by signature, or with bounded
        variation (``within_variation``: lines of the region, new menu links stating no fact)."""
        if self(other, page) == self(region, 0):
            return True
        learned = self.lines(region, 0)
        if not learned:
            return False
        key = ("varied", region, other)
        if key not in self.cache:
            theirs = self.lines(other, page)
            # Text alike but links to other sites or other mail, phone or messenger addresses: each page's own (its
            # apply button, its contact), not one template region.
            self.cache[key] = (bool(theirs) and within_variation(theirs, learned) and within_variation(learned, theirs)
                               and destinations(other) == destinations(region))
        return self.cache[key]


def quorum(n_pages: int) -> int:
    """On how many samples a template region must be found as learned: all of 2, else two thirds (at least 2).

    A template region may differ on a minority of pages (an older page, a page with one more menu item): the
    rule is learned from the others and leaves a page where the region differs as it is."""
    return n_pages if n_pages <= 2 else max(2, -(-2 * n_pages // 3))


def page_language(root) -> str:
    """The page's language as its <html lang> names it ("en-US" -> "en"), or ''."""
    return (root.get("lang") or "").strip().split("-")[0].split("_")[0].lower()


def language_quorum(roots) -> int:
    """The quorum among the samples in the first sample's language, where the samples are in several (a site's
    French and Dutch versions): each version has a template of its own words, found only on its own pages."""
    languages = [page_language(root) for root in roots]
    if not languages[0] or len(set(languages)) == 1:
        return quorum(len(roots))
    return min(quorum(len(roots)), quorum(sum(1 for language in languages if language == languages[0])))


# A selector may match a few regions on a page (a share bar at the top and at the bottom, tabbed copies):
# apply removes those with the learned signature. More matches than this make a selector too loose to keep.
MAX_MATCHES = 4


def match_everywhere(selector: str, roots, candidate_sets):
    """The complete candidate regions ``selector`` matches on each page (a list per page), or None and why not."""
    regions = []
    for root, candidates in zip(roots, candidate_sets):
        try:
            matches = select(root, selector)
        except InvalidSelectorError as exc:
            return None, str(exc)
        regions.append([m for m in matches if in_candidate(m, candidates)][:MAX_MATCHES])
    if not regions[0]:
        return None, "region missing on the first sample"
    return regions, ""


def learnable_selector(region, roots, indexes, candidate_sets, settings: NoiseSettings, signatures,
                        need: int | None = None):
    """The shortest selector that finds ``region`` and, on a quorum of samples, a candidate region with its
    signature (self-references normalised), matching at most MAX_MATCHES regions on any sample."""
    if len(lxml_html.tostring(region, encoding="unicode")) > settings.max_region_chars:
        return None, f"over the size limit ({settings.max_region_chars} characters of markup)"
    steps = indexes[0].structured_steps(region)
    selectors = indexes[0].selector_candidates(region)
    need = need or language_quorum(roots)
    if signatures(region, 0) == SIBLING_POSTINGS_SIGNATURE:
        # A list of the site's other postings is known by what it links to on each page, not by agreeing text:
        # found on two samples it is learned, though some postings show none (a newer or an older page).
        need = min(need, 2)
    found_elsewhere = 0
    loose = False
    # Where positions shift between samples (one more sibling before the region), the region is still found
    # by its path without positions and its signature: apply looks there too (RemovalRule.path).
    relaxed = [(tag, role, label, None) for tag, role, label, _nth in steps]
    by_path = [any(signatures.same(region, m, k) for m in index.select(relaxed)
                   if in_candidate(m, candidates))
               for k, (index, candidates) in enumerate(zip(indexes, candidate_sets))]
    # A selector that finds one region on every sample reads best and is the least likely to find a stranger
    # on a new page; one that finds a few (repeated or tabbed copies) only when no unique one exists.
    for most in (1, MAX_MATCHES):
        for n, selector in enumerate(selectors, start=1):
            agreeing = 0
            too_many = False
            for k, (index, candidates) in enumerate(zip(indexes, candidate_sets)):
                found = index.select(steps[-n:])
                matches = [m for m in found if in_candidate(m, candidates)]
                if len(found) > most or (k == 0 and region not in matches):
                    too_many = True
                    break
                if by_path[k] or any(signatures.same(region, m, k) for m in matches):
                    agreeing += 1
            if too_many:
                loose = True
                continue
            found_elsewhere = max(found_elsewhere, agreeing)
            if agreeing >= need:
                # The stored selector is what apply runs: confirm the CSS agrees with the fast search.
                confirmed, _why = match_everywhere(selector, roots, candidate_sets)
                if confirmed is not None and region in confirmed[0] and sum(
                        1 for k, page in enumerate(confirmed)
                        if by_path[k] or any(signatures.same(region, m, k) for m in page)) >= need:
                    return selector, ""
    if found_elsewhere:
        return None, (f"differs between samples (text, structure, attributes or links): found as learned on "
                      f"{found_elsewhere} of {len(indexes)} samples, {need} needed")
    if loose:
        return None, f"ambiguous selector: every selector matches more than {MAX_MATCHES} regions on a sample"
    return None, "differs between samples (text, structure, attributes or links)"


def in_candidate(el, candidates) -> bool:
    return any(node in candidates for node in (el, *el.iterancestors()))
