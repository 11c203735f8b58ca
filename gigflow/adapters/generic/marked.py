"""Marked-up fields: what a page says a value is by markup (microdata, a label row, a class naming the field), and
the document title's telling patterns ("X hiring Y in Z"). Employer and location both read these first."""

from __future__ import annotations

import re

from gigflow.adapters.common import clean_text
from gigflow.adapters.generic.patterns import ATTR_EXCLUDED, CAMEL_CASE, MAX_FIELD
from gigflow.adapters.generic.text import joined_text, own_text
from gigflow.adapters.text_patterns import label_field


class MarkedFields:
    """Mixin of the page (gigflow.adapters.generic.page.Page): lookups the employer and location finders share."""

    def marked(self, itemprop: str, label: str, attribute: re.Pattern,
               joined: bool = False) -> tuple[str, str, str] | None:
        """(kind, value, where) of the strongest marked-up way the page names a field (once per page): schema.org
        microdata (kind "itemprop"), a labelled row ("label"), a class/id/data attribute naming it ("attribute")."""
        cache = self.__dict__.setdefault("_marked_cache", {})
        if itemprop not in cache:
            cache[itemprop] = self._find_marked(itemprop, label, attribute, joined)
        return cache[itemprop]

    def _find_marked(self, itemprop: str, label: str, attribute: re.Pattern,
                     joined: bool) -> tuple[str, str, str] | None:
        for element in self.root.iter():
            if isinstance(element.tag, str) and element.get("itemprop") == itemprop:
                text = clean_text(own_text(element), MAX_FIELD)
                if text:
                    return "itemprop", text, f"{self.path(element)} [itemprop]"
        if label in self.labelled:
            value, evidence = self.labelled[label]
            return "label", value, evidence.snippet_or_path
        found = self._by_attribute(attribute, joined=joined)
        return ("attribute", *found) if found else None

    def meta_title_match(self, *patterns: re.Pattern) -> tuple[str, re.Match | None]:
        """The first of og:title and <title> that one of the patterns matches (tried in order), with the match."""
        for key in ("og:title", "<title>"):
            for pattern in patterns:
                match = pattern.match(self.meta.get(key, ""))
                if match:
                    return key, match
        return "", None

    def _by_attribute(self, pattern: re.Pattern, joined: bool = False) -> tuple[str, str] | None:
        """(text, where) of the first short, link-free element whose class/id/data attributes name the field
        (once per page)."""
        cache = self.__dict__.setdefault("_attribute_cache", {})
        if (pattern.pattern, joined) not in cache:
            cache[(pattern.pattern, joined)] = self._find_by_attribute(pattern, joined)
        return cache[(pattern.pattern, joined)]

    def _find_by_attribute(self, pattern: re.Pattern, joined: bool) -> tuple[str, str] | None:
        for element in self.facts:
            attributes = " ".join(v for k, v in element.attrib.items()
                                  if k in ("class", "id", "data-automation", "data-testid", "data-qa"))
            # data-company-name="true": the attribute's name says what the element holds; "companyName" is
            # "company-name" written in camel case.
            named = [k[5:] for k in element.attrib if k.startswith("data-") and len(k) < 40]
            if named:
                attributes = f"{attributes} {' '.join(named)}".strip()
            if attributes and not attributes.islower():
                attributes = CAMEL_CASE.sub(r"\1-\2", attributes)
            if not attributes or ATTR_EXCLUDED.search(attributes):
                continue
            names = [token for token in re.split(r"\s+", attributes) if pattern.search(token)]
            if not names or element.tag in ("input", "select", "option", "img", "button", "ul", "ol", "nav",
                                            "h2", "h3", "h4", "h5", "h6"):
                continue  # section headings ("Company and salary information") name a section, not the value
            if element.tag != "a" and element.find(".//a") is not None and len(element.findall(".//a")) > 1:
                continue
            strong = element.find(".//strong")
            source = strong if strong is not None and clean_text(own_text(strong)) else element
            text = clean_text(joined_text(source) if joined else own_text(source), MAX_FIELD)
            if text and 2 <= len(text) < MAX_FIELD and label_field(text) is None:
                return text, f"{self.path(element)} [{names[0]}]"
        return None
