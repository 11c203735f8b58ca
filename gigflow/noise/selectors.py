"""Selectors for regions, built from tags, ARIA roles, labels and direct ancestry; never from ids or classes."""

from __future__ import annotations

from functools import lru_cache

from cssselect import SelectorError
from lxml.cssselect import CSSSelector


class InvalidSelectorError(ValueError):
    pass


@lru_cache(maxsize=4096)
def compiled(selector: str) -> CSSSelector:
    try:
        return CSSSelector(selector)
    except (SelectorError, SyntaxError, ValueError) as exc:
        raise InvalidSelectorError(f"invalid selector {selector!r}: {exc}") from exc


def select(root, selector: str) -> list:
    return compiled(selector)(root)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _own_step(el) -> str:
    """Tag plus the element's stable attributes: ARIA role and aria-label."""
    step = el.tag
    role = (el.get("role") or "").strip()
    if role:
        step += f"[role={_quote(role)}]"
    label = " ".join((el.get("aria-label") or "").split())
    if label:
        step += f"[aria-label={_quote(label)}]"
    return step


def _step(el) -> str:
    """The element's step, with :nth-of-type() only when its tag alone is ambiguous among its siblings."""
    step = _own_step(el)
    parent = el.getparent()
    if parent is None:
        return step
    same = [sib for sib in parent if isinstance(sib.tag, str) and _own_step(sib) == step]
    if len(same) > 1:
        same_tag = [sib for sib in parent if sib.tag == el.tag]
        step += f":nth-of-type({same_tag.index(el) + 1})"
    return step


def ancestry_steps(el) -> list[str]:
    """Steps from the root element down to ``el``."""
    steps = []
    node = el
    while node is not None:
        steps.append(_step(node))
        node = node.getparent()
    return list(reversed(steps))


def selector_candidates(el) -> list[str]:
    """Selectors for ``el`` from the shortest (its own step) to the full path from the root, joined by '>'."""
    steps = ancestry_steps(el)
    return [" > ".join(steps[-n:]) for n in range(1, len(steps) + 1)]
