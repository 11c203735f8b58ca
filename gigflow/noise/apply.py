"""applyNoiseFilter: remove learned noise regions from a prepared tree. Pure; never calls a model."""

from __future__ import annotations

from cssselect import SelectorError
from lxml.cssselect import CSSSelector

from gigflow.documents.types import PreparationReport
from gigflow.noise.model import NoiseFilter
from gigflow.noise.signature import region_signature


def apply_noise_filter(root, noise_filter: NoiseFilter | None, report: PreparationReport) -> int:
    """Remove each rule's region when its selector matches exactly one region with the learned signature.

    A changed, missing or ambiguous region stays in the page, and the report asks for a review.
    Returns the number of regions removed.
    """
    if noise_filter is None:
        return 0
    removed = 0
    for rule in noise_filter.removal_rules():
        try:
            matches = CSSSelector(rule.selector)(root)
        except (SelectorError, SyntaxError, ValueError) as exc:
            report.retained("noise-filter", selector=rule.selector, reason=f"invalid selector: {exc}")
            report.review_requested = True
            continue
        if len(matches) != 1:
            report.retained("noise-filter", selector=rule.selector,
                            reason="region missing" if not matches else f"ambiguous: {len(matches)} regions match")
            report.review_requested = True
            continue
        region = matches[0]
        if region_signature(region) != rule.signature:
            report.retained("noise-filter", selector=rule.selector, path=root.getroottree().getpath(region),
                            reason="region changed since learning", text_length=len(region.text_content()))
            report.review_requested = True
            continue
        report.removed("noise-filter", selector=rule.selector, path=root.getroottree().getpath(region),
                       reason=rule.reason, text_length=len(region.text_content()))
        region.drop_tree()
        removed += 1
    return removed
