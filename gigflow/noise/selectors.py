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


def relaxed_path(el) -> str:
    """The element's path from the root with tags, roles and labels but no positions."""
    steps = []
    node = el
    while node is not None:
        steps.append(_own_step(node))
        node = node.getparent()
    return " > ".join(reversed(steps))


def selector_candidates(el) -> list[str]:
    """Selectors for ``el`` from the shortest (its own step) to the full path from the root, joined by '>'."""
    steps = ancestry_steps(el)
    return [" > ".join(steps[-n:]) for n in range(1, len(steps) + 1)]


class PageIndex:
    """Fast matching of our own selector shape (steps joined by '>') on one page, for the learner's search.

    Each step is a tag with an optional role, aria-label and :nth-of-type(); this matches exactly what the CSS
    selector built from the same steps matches, without compiling thousands of trial selectors to XPath.
    """

    def __init__(self, root):
        self.by_tag: dict[str, list] = {}
        self.nth: dict = {}
        self.steps: dict = {}  # element -> its step (what _step returns), computed once per page
        self.steps[root] = _own_step(root)
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            self.by_tag.setdefault(el.tag, []).append(el)
            counts: dict[str, int] = {}
            own: dict = {}
            for child in el:
                if isinstance(child.tag, str):
                    counts[child.tag] = counts.get(child.tag, 0) + 1
                    self.nth[child] = counts[child.tag]
                    own.setdefault(_own_step(child), []).append(child)
            for step, children in own.items():
                for child in children:
                    self.steps[child] = step if len(children) == 1 else f"{step}:nth-of-type({self.nth[child]})"

    def selector_candidates(self, el) -> list[str]:
        """``selector_candidates(el)`` for an element of this page, in time linear in its depth."""
        steps = []
        node = el
        while node is not None:
            steps.append(self.steps[node])
            node = node.getparent()
        steps.reverse()
        return [" > ".join(steps[-n:]) for n in range(1, len(steps) + 1)]

    def structured_steps(self, el) -> list[tuple]:
        """``structured_steps(el)`` for an element of this page, in time linear in its depth."""
        steps = []
        node = el
        while node is not None:
            role = (node.get("role") or "").strip() or None
            label = " ".join((node.get("aria-label") or "").split()) or None
            nth = self.nth.get(node) if ":nth-of-type(" in self.steps[node] else None
            steps.append((node.tag, role, label, nth))
            node = node.getparent()
        return list(reversed(steps))

    def _matches_step(self, el, step: tuple) -> bool:
        tag, role, label, nth = step
        if el is None or el.tag != tag:
            return False
        if role is not None and (el.get("role") or "").strip() != role:
            return False
        if label is not None and " ".join((el.get("aria-label") or "").split()) != label:
            return False
        return nth is None or self.nth.get(el) == nth

    def select(self, steps: list[tuple]) -> list:
        found = []
        for el in self.by_tag.get(steps[-1][0], ()):
            node, ok = el, True
            for step in reversed(steps):
                if not self._matches_step(node, step):
                    ok = False
                    break
                node = node.getparent()
            if ok:
                found.append(el)
        return found


def structured_steps(el) -> list[tuple]:
    """(tag, role, aria-label, nth-of-type) for each step of ``ancestry_steps(el)``, root first."""
    steps = []
    node = el
    while node is not None:
        text = _step(node)
        role = (node.get("role") or "").strip() or None
        label = " ".join((node.get("aria-label") or "").split()) or None
        nth = None
        if ":nth-of-type(" in text:
            nth = int(text.rsplit(":nth-of-type(", 1)[1].rstrip(")"))
        steps.append((node.tag, role, label, nth))
        node = node.getparent()
    return list(reversed(steps))
