"""Where an element sits on a page: the site's chrome and frame, hidden widgets, lists of other pages' items."""

from __future__ import annotations

from urllib.parse import urljoin

from gigflow.adapters.common import clean_text
from gigflow.adapters.gazetteer import place_score
from gigflow.adapters.generic.patterns import (APPLY_WORDS, CARD_CLASS, CHROME_TAGS, CHROME_TOKENS, FRAME_TOKENS,
                                               INLINE_LABEL, LISTING_MIN_ITEMS, PAGE_TAGS)
from gigflow.adapters.generic.text import class_shape, own_text
from gigflow.adapters.text_patterns import label_field, normalise


class PageLayout:
    """Mixin of the page (gigflow.adapters.generic.page.Page): the page's regions, decided once per page."""

    def _in_site_frame(self, element) -> bool:
        """Inside the site's frame proper: a nav or footer element, a dialog, a cookie banner, a form's controls,
        a navigation/contentinfo role; not merely a block whose class says nav or header."""
        if element in self._frame:
            return self._frame[element]
        return any(self._is_frame(node) for node in [element, *element.iterancestors()])

    @staticmethod
    def _is_frame(node) -> bool:
        if node.tag in PAGE_TAGS:
            return False
        if node.tag in ("nav", "footer", "dialog", "form", "select") or \
                node.get("role") in ("navigation", "contentinfo", "dialog"):
            return True
        return bool(FRAME_TOKENS.search(f"{node.get('class') or ''} {node.get('id') or ''}"))

    def _weak_chrome(self, element) -> bool:
        """Chrome only by a class/id token such as "section-header" or "header-content" (a page's title block is
        often named so), not by a header/nav/footer element or role, nor by a menu, modal or cookie class."""
        for node in [element, *element.iterancestors()]:
            if node.tag in PAGE_TAGS:
                continue
            if node.tag in CHROME_TAGS or node.get("role") in ("navigation", "banner", "contentinfo", "dialog"):
                return False
            tokens = {m.group(2).lower() for m in CHROME_TOKENS.finditer(f"{node.get('class') or ''} "
                                                                         f"{node.get('id') or ''}")}
            if tokens - {"header"}:
                return False
        return True

    @staticmethod
    def _hidden(element) -> bool:
        for node in [element, *element.iterancestors()]:
            style = (node.get("style") or "").replace(" ", "").lower()
            if "display:none" in style or node.get("hidden") is not None or node.get("aria-hidden") == "true":
                return True
        return False

    @staticmethod
    def _is_chrome(node) -> bool:
        if node.tag in PAGE_TAGS:
            return False  # a CMS names the template on <body> ("ehf-header has-sidebar"): the page, not a region
        if node.tag in CHROME_TAGS or node.get("role") in ("navigation", "banner", "contentinfo", "dialog"):
            return True
        return bool(CHROME_TOKENS.search(f"{node.get('class') or ''} {node.get('id') or ''}"))

    def lists_other_pages(self) -> bool:
        """Whether at least LISTING_MIN_ITEMS alike items (li, rows, cards: three or more siblings of one tag and
        class) each link elsewhere with a text of two or more words, outside the site's chrome."""
        if not hasattr(self, "_lists_other_pages"):
            items = set()
            for anchor in self.root.iter("a"):
                text = own_text(anchor)
                if self._in_chrome(anchor) or len(text) < 10 or len(text.split()) < 2 or \
                        not self._links_elsewhere(anchor):
                    continue
                for depth, node in enumerate(anchor.iterancestors()):
                    parent = node.getparent()
                    if parent is None or depth > 6:
                        break
                    if self._alike(node) >= 3:
                        items.add(node)
                        break
                if len(items) >= LISTING_MIN_ITEMS:
                    break
            self._lists_other_pages = len(items) >= LISTING_MIN_ITEMS
        return self._lists_other_pages

    def _other_job_cards(self) -> set:
        """Items of a list of other jobs: blocks with two or more alike siblings (tag and class) that each link
        to another page with a text of two or more words that is no place, label or apply button (a job's title),
        at least two of them, none holding the page's h1."""
        items, seen = set(), set()
        for anchor in self.root.iter("a"):
            item = None
            for depth, node in enumerate(anchor.iterancestors()):
                if node.getparent() is None or node.tag in PAGE_TAGS or depth > 12:
                    break
                if (node.tag in ("li", "article") or CARD_CLASS.search(node.get("class") or "")) and \
                        self._alike(node) >= 3:
                    item = node
                    break
            if item is None or item in items or not self._links_elsewhere(anchor):
                continue
            text = clean_text(own_text(anchor), 120) or ""
            if len(text.split()) < 2 or len(text) > 120 or APPLY_WORDS.search(text) or \
                    label_field(text) is not None or INLINE_LABEL.match(text) or place_score(text) >= 0.5:
                continue
            if item in seen:
                continue
            seen.add(item)
            first = clean_text(next((t for t in item.itertext() if t.strip()), ""), 80) or ""
            if not self._holds_page_heading(item) and not INLINE_LABEL.match(first) and label_field(first) is None:
                items.add(item)  # a label row ("Company: <a>Acme Corp</a>") is the job's own fact
        return items if len(items) >= 2 else set()

    def _holds_page_heading(self, node) -> bool:
        """Whether a block holds an h1 that the document title repeats (the posting's own heading)."""
        if "_page_titles" not in self.__dict__:
            self._page_titles = normalise(" ".join(self.meta.get(k, "") for k in ("<title>", "og:title")))
        titles = self._page_titles
        for h1 in node.iter("h1"):
            text = normalise(own_text(h1))
            if not titles or (text and text in titles):
                return True
        return False

    def _in_footer(self, element) -> bool:
        return any(a.tag == "footer" or a.get("role") == "contentinfo" for a in element.iterancestors()) or \
            element.tag == "footer"

    def _in_card_list(self, element) -> bool:
        """Whether the element sits in a list item (li, article) with at least two alike siblings."""
        item = next((a for a in element.iterancestors("li", "article")), None)
        return item is not None and item.getparent() is not None and self._alike(item) >= 3

    def _alike(self, node) -> int:
        """How many siblings (the node included) share the node's tag and class, counted once per group."""
        cache = self.__dict__.setdefault("_alike_counts", {})
        shapes = self.__dict__.setdefault("_class_shapes", {})
        parent = node.getparent()
        key = (parent, node.tag, node.get("class"))
        if key not in cache:
            shape = class_shape(node)
            for sibling in parent:
                if sibling.get("class") not in shapes:
                    shapes[sibling.get("class")] = class_shape(sibling)
            cache[key] = sum(1 for s in parent if s.tag == node.tag and shapes[s.get("class")] == shape)
        return cache[key]

    def _in_chrome(self, element) -> bool:
        return self._chrome.get(element, False) if element is not None else False

    def _links_elsewhere(self, anchor) -> bool:
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:")):
            return False
        target = urljoin(self.base, href).split("#")[0].rstrip("/")
        return target != (self.url or "").split("#")[0].rstrip("/")
