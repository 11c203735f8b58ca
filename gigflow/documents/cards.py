"""Job-card removal: cards on href listings and items on click listings, each decision in the report.

A removal needs positive evidence. For href listings the card selector alone never authorises removal: a
card goes only when every link in it leads to *another* job the strategy would crawl. For click listings the
configured item selector does authorise removal, but never of the detail the user came for.
"""

from __future__ import annotations

import re
from urllib.parse import urldefrag

from lxml.cssselect import CSSSelector

from gigflow.documents.links import same_page
from gigflow.patterns import PatternError, compile_pattern
from gigflow.documents.types import PreparationReport

ROOT_TAGS = frozenset({"html", "head", "body"})
# Elements that mark the page's main content: a card selector matching one of them (or an ancestor) is too broad.
_MAIN_CONTENT = "descendant-or-self::*[self::main or @role='main']"
_MEANINGFUL_TEXT = re.compile(r"[^\W_]")


def remove_job_cards(root, strategy, page_url: str, report: PreparationReport) -> int:
    """Apply the strategy's card rules to the tree in place; returns the number of elements removed."""
    kind = getattr(strategy, "type", None)
    if kind == "href":
        return _remove_href_cards(root, strategy, page_url, report)
    if kind == "click":
        return _remove_click_items(root, strategy, report)
    return 0  # sitemap, feed and ATS strategies have no card selector


def _select(root, selector: str, rule: str, report: PreparationReport, what: str = "selector"):
    try:
        return CSSSelector(selector)(root)
    except Exception as exc:  # cssselect raises SelectorError/ExpressionError; lxml XPath errors too
        report.retained(rule, selector=selector, reason=f"invalid {what}: {exc}; all content retained")
        return None


def _document_roots(root) -> set:
    """html, head, body, the main-content elements and their ancestors, and the single-child wrapper chain
    under body (a page, or a click capture, that is one wrapper around everything)."""
    roots = {el for el in root.iter(*ROOT_TAGS)}
    roots.add(root)
    for main in root.xpath(_MAIN_CONTENT):
        roots.add(main)
        roots.update(main.iterancestors())
    body = root.find("body")
    node = body if body is not None else root
    while True:
        children = [c for c in node if isinstance(c.tag, str)]
        own_text = (node.text or "") + "".join(c.tail or "" for c in children)
        if len(children) != 1 or _MEANINGFUL_TEXT.search(own_text):
            break
        node = children[0]
        roots.add(node)
    return roots


def _attached(el, root) -> bool:
    """False once an ancestor has been removed (a card nested in a removed card)."""
    top = el
    while top.getparent() is not None:
        top = top.getparent()
    return top is root


def _structural_reason(el) -> str | None:
    for tag, reason in (("h1", "kept for h1"), ("form", "kept for form"), ("table", "kept for table")):
        if el.tag == tag or el.find(f".//{tag}") is not None:
            return reason
    return None


def _matches(url: str, patterns: list, exclusions: list) -> bool:
    return any(p.search(url) for p in patterns) and not any(p.search(url) for p in exclusions)


def _remove_href_cards(root, strategy, page_url: str, report: PreparationReport) -> int:
    selector = getattr(strategy, "card_selector", None)
    if not selector:
        return 0
    rule = "job-card"
    if not strategy.job_url_patterns:
        report.retained(rule, selector=selector,
                        reason="no job URL patterns configured: a card selector alone never authorises removal")
        return 0
    try:
        patterns = [compile_pattern(p) for p in strategy.job_url_patterns]
        exclusions = [compile_pattern(p) for p in strategy.exclude_patterns]
    except PatternError as exc:
        report.retained(rule, selector=selector, reason=f"invalid URL pattern: {exc}; all content retained")
        return 0
    matches = _select(root, selector, rule, report)
    if not matches:
        return 0

    def why_kept(el, is_root: bool) -> str | None:
        if is_root:
            return "root match: the selector matches the document root or an ancestor of the main content"
        return _structural_reason(el) or _href_card_reason(el, page_url, patterns, exclusions)

    return _remove_matches(root, matches, report, rule, selector, why_kept, "every link leads to another job")


def _remove_matches(root, matches, report: PreparationReport, rule: str, selector: str, why_kept,
                    removal_reason: str) -> int:
    """The one removal loop: each match still in the tree is removed unless ``why_kept(el, is_root)`` names a
    reason to keep it; both outcomes go into the report with the match's path (taken before anything moves)."""
    tree = root.getroottree()
    roots = _document_roots(root)
    paths = {el: tree.getpath(el) for el in matches}
    removed = 0
    for el in matches:
        if not _attached(el, root):
            continue
        path, length = paths[el], len(el.text_content())
        reason = why_kept(el, el in roots)
        if reason:
            report.retained(rule, selector=selector, path=path, reason=reason, text_length=length)
            continue
        report.removed(rule, selector=selector, path=path, reason=removal_reason, text_length=length)
        el.drop_tree()
        removed += 1
    return removed


def _href_card_reason(el, page_url: str, patterns, exclusions) -> str | None:
    """Why this card must stay, or None when it is only links to other jobs."""
    links = [a for a in el.iter("a") if a.get("href") is not None]
    if not links:
        return "no job links in the card"
    for link in links:
        href = link.get("href").strip()
        if same_page(href, page_url):
            return f"current-job link: {href}"
        if not href.startswith(("http://", "https://")) or not _matches(urldefrag(href).url, patterns, exclusions):
            return f"link outside the job URL patterns: {href}"
    outside = "".join(el.xpath("descendant-or-self::text()[not(ancestor::a)]"))
    if _MEANINGFUL_TEXT.search(outside):
        return "kept for text outside job links"
    return None


def _remove_click_items(root, strategy, report: PreparationReport) -> int:
    rule = "click-item"
    selector = strategy.item_selector
    details = _select(root, strategy.detail_selector, rule, report, what="detail selector")
    if details is None:
        return 0
    matches = _select(root, selector, rule, report)
    if not matches:
        return 0
    detail_set = set(details)

    def why_kept(el, is_root: bool) -> str | None:
        if is_root:
            return "root match: the item selector matches the document root or the captured detail itself"
        if el.tag == "h1" or el.find(".//h1") is not None:
            return "kept for h1"
        if el in detail_set:
            return "the item is the configured detail region"
        if any(d in detail_set for d in el.iterdescendants()):
            return "the item contains the configured detail region"
        return None

    return _remove_matches(root, matches, report, rule, selector, why_kept, "click-listing item")


__all__ = ["remove_job_cards"]
