"""applyNoiseFilter: remove learned noise regions from a prepared tree. Pure; never calls a model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gigflow.noise.model import NoiseFilter
from gigflow.noise.page_name import keep_page_name, page_name_only_in
from gigflow.noise.selectors import InvalidSelectorError, select
from gigflow.noise.signature import SelfReferences, region_lines, signature_for, within_variation
from gigflow.noise.snippets import normalise_snippet
from gigflow.noise.statements import drop_statements

if TYPE_CHECKING:  # documents calls apply, never the reverse: the report is only annotated here
    from gigflow.documents.types import PreparationReport


EXCERPT_CHARS = 120
# Regions a rule's selector and path find that are compared line by line when none has the learned signature
# (each comparison reads the region once: bounded, whatever the page).
MAX_VARIANT_TRIES = 8


def region_excerpt(region, limit: int = EXCERPT_CHARS) -> str:
    """The region's visible text, whitespace collapsed and shortened: what reports show of a removed region."""
    return text_excerpt(region.text_content(), limit)


def text_excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def apply_noise_filter(root, noise_filter: NoiseFilter | None, report: PreparationReport,
                       page_url: str | None = None) -> int:
    """Remove every region a rule's selector matches that has the rule's learned signature.

    Signatures are compared with the page's self-references normalised (``page_url``, its title): a template
    region that names the page it is on is still the same region. A region that changed, or a selector that
    matches nothing with the learned signature, leaves the page as it is, and the report asks for a review.
    Every rule is matched against the untouched tree before anything is removed, because removing one region
    shifts the :nth-of-type() positions that other rules' selectors rely on.
    Returns the number of regions removed.
    """
    if noise_filter is None:
        return 0
    signature = signature_for(noise_filter.version)
    refs = SelfReferences.of_page(root, page_url)
    doomed, seen, varied_regions = [], set(), set()
    for rule in noise_filter.removal_rules():
        try:
            matches = select(root, rule.selector)
        except InvalidSelectorError as exc:
            report.retained("noise-filter", selector=rule.selector, reason=str(exc))
            report.review_requested = True
            continue
        if not matches and rule.path:
            try:
                matches = select(root, rule.path)
            except InvalidSelectorError:
                matches = []
        if not matches:
            report.retained("noise-filter", selector=rule.selector, reason="region missing")
            report.review_requested = True
            continue
        same = [region for region in matches if signature(region, refs) == rule.signature]
        if not same and rule.path:  # positions shifted on this page: the same region by its path and signature
            try:
                same = [region for region in select(root, rule.path) if signature(region, refs) == rule.signature]
            except InvalidSelectorError:
                same = []
        if not same and rule.lines:
            # The region with bounded per-page variation (a menu item more, an older footer, the current item
            # as text): its lines are the learned ones, or new link-only lines stating no fact.
            same = [region for region in _by_selector_then_path(root, matches, rule)[:MAX_VARIANT_TRIES]
                    if within_variation(region_lines(region, refs), rule.lines)]
            varied = bool(same)
        else:
            varied = False
        if not same:
            region = matches[0]
            report.retained("noise-filter", selector=rule.selector, path=root.getroottree().getpath(region),
                            reason="region changed since learning" if len(matches) == 1 else
                            f"region changed since learning ({len(matches)} regions match, none as learned)",
                            text_length=len(region.text_content()), text=region_excerpt(region))
            report.review_requested = True
            continue
        for region in same:
            if varied:
                varied_regions.add(region)
            if region not in seen:
                seen.add(region)
                doomed.append((rule, region, root.getroottree().getpath(region)))
    # Kept regions with statements to remove, found on the untouched tree too (as learned: by signature), their
    # statements read there as learned, and removed before any region (a region's removal merges text nodes).
    trimmed = []
    for rule in noise_filter.statement_rules():
        for where in (rule.selector, rule.path):
            try:
                found = [region for region in select(root, where) if signature(region, refs) == rule.signature] \
                    if where else []
            except InvalidSelectorError:
                found = []
            if found:
                trimmed += [(rule, region, root.getroottree().getpath(region)) for region in found]
                break
    doomed = _restated_elsewhere(root, doomed, report)
    removed = 0
    for rule, region, path in trimmed:
        if region in seen or any(ancestor in seen for ancestor in region.iterancestors()):
            continue  # removed whole by another rule
        texts = drop_statements(region, rule.drop_statements, refs)
        if texts:
            report.removed("noise-filter", selector=rule.selector, path=path,
                           reason="statements without a job fact in a region kept for one: " + rule.reason,
                           text_length=sum(len(text) for text in texts), text=text_excerpt(" | ".join(texts)))
            removed += 1
    name_at = page_name_only_in(root, [region for _rule, region, _path in doomed], page_url)
    for rule, region, path in doomed:
        if region.getparent() is None or any(ancestor in seen for ancestor in region.iterancestors()):
            continue  # inside a region another rule removes, or a statement removed already
        if region is name_at[0]:
            keep_page_name(root, region, name_at[1], report)
        report.removed("noise-filter", selector=rule.selector, path=path,
                       reason=rule.reason + (" (with bounded variation)" if region in varied_regions else ""),
                       text_length=len(region.text_content()), text=region_excerpt(region))
        region.drop_tree()
        removed += 1
    return removed


def _restated_elsewhere(root, doomed: list, report: PreparationReport) -> list:
    """``doomed`` without the regions removed for restating facts (``rule.restated``) that this page states
    nowhere else: learned where every sample restated them, they are the only statement of them here."""
    if not any(rule.restated for rule, _region, _path in doomed):
        return doomed
    body = root.find(".//body")
    page = _as_markdown_shows(body if body is not None else root)
    # What each region to be removed shows: a fact restated only by regions that go too (two copies of "Remote",
    # each restating the other) is stated by nothing that stays.
    shown = {id(region): _as_markdown_shows(region) for _rule, region, _path in doomed}
    going = {id(region): region for _rule, region, _path in doomed}
    kept = []
    for rule, region, path in doomed:
        if rule.restated:
            outer = [other for other in going.values()
                     if not any(id(ancestor) in going for ancestor in other.iterancestors())]
            alone = [fact for fact in rule.restated
                     if page.count(fact) <= sum(shown[id(other)].count(fact) for other in outer)]
            if alone:
                report.retained("noise-filter", selector=rule.selector, path=path,
                                reason=f"states {alone[0]!r}, which the rest of this page does not (learned as "
                                       "restated on every sample)",
                                text_length=len(region.text_content()), text=region_excerpt(region))
                going.pop(id(region), None)
                continue
        kept.append((rule, region, path))
    return kept


def _as_markdown_shows(element) -> str:
    """The element's text with its link targets and image texts, normalised: what its Markdown states, as
    learning compared it."""
    extra = [value for a in element.iter("a") for value in (a.get("href"),) if value]
    extra += [value for img in element.iter("img") for value in (img.get("alt"), img.get("src")) if value]
    return normalise_snippet(" ".join([element.text_content(), *extra]))


def _by_selector_then_path(root, matches: list, rule) -> list:
    """Where a rule looks: its selector's matches, then its position-free path's."""
    found = list(matches)
    if rule.path:
        try:
            found += [region for region in select(root, rule.path) if region not in found]
        except InvalidSelectorError:
            pass
    return found
