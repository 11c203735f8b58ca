"""applyNoiseFilter: remove learned noise regions from a prepared tree. Pure; never calls a model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gigflow.noise.model import NoiseFilter
from gigflow.noise.selectors import InvalidSelectorError, select
from gigflow.noise.signature import region_signature

if TYPE_CHECKING:  # documents calls apply, never the reverse: the report is only annotated here
    from gigflow.documents.types import PreparationReport


EXCERPT_CHARS = 120


def region_excerpt(region, limit: int = EXCERPT_CHARS) -> str:
    """The region's visible text, whitespace collapsed and shortened: what reports show of a removed region."""
    text = " ".join(region.text_content().split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def apply_noise_filter(root, noise_filter: NoiseFilter | None, report: PreparationReport) -> int:
    """Remove each rule's region when its selector matches exactly one region with the learned signature.

    A changed, missing or ambiguous region stays in the page, and the report asks for a review.
    Every rule is matched against the untouched tree before anything is removed, because removing one region
    shifts the :nth-of-type() positions that other rules' selectors rely on.
    Returns the number of regions removed.
    """
    if noise_filter is None:
        return 0
    doomed = []
    for rule in noise_filter.removal_rules():
        try:
            matches = select(root, rule.selector)
        except InvalidSelectorError as exc:
            report.retained("noise-filter", selector=rule.selector, reason=str(exc))
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
                            reason="region changed since learning", text_length=len(region.text_content()),
                            text=region_excerpt(region))
            report.review_requested = True
            continue
        doomed.append((rule, region, root.getroottree().getpath(region)))
    removed = 0
    for rule, region, path in doomed:
        report.removed("noise-filter", selector=rule.selector, path=path, reason=rule.reason,
                       text_length=len(region.text_content()), text=region_excerpt(region))
        if region.getparent() is not None:
            region.drop_tree()
        removed += 1
    return removed
