"""The lines right after the title element: a job's facts line ("Acme · Berlin · Full-time · Posted 3 March"), the
company's line, the place's line. Employer, location, dates and employment types read them."""

from __future__ import annotations

import re

from gigflow.adapters.common import clean_text
from gigflow.adapters.dates import normalise_date
from gigflow.adapters.gazetteer import place_score
from gigflow.adapters.generic.patterns import (BLOCK_TAGS, HEADINGS, INLINE_LABEL, MAX_FIELD, MAX_WRAPPERS, PAGE_TAGS,
                                               POSTED_PHRASE, SEPARATOR_ONLY, WORK_MODE_ONLY)
from gigflow.adapters.generic.text import is_control, own_text
from gigflow.adapters.job_facts import REMOTE, employment_types
from gigflow.adapters.text_patterns import parse_salary


def line_segments(text: str) -> list[str]:
    """A line of facts split at its separators ("Acme · Berlin | Full-time — posted today", "Belgrade, Serbia. Full
    time": a stop after a word of four letters or more, so "St. Louis" stays whole)."""
    return [s.strip() for s in _SEGMENT_SEPARATOR.split(text) if s.strip()]


_SEGMENT_SEPARATOR = re.compile(r"\s*[·•|]\s*|\s+[–—]\s+|(?<=[^\W\d_]{4})\.\s+(?=[^\W\d_])")


def leads_with_a_code(segments: list[str]) -> bool:
    """A short code in capitals leads the line: its department ("IT | Zentrale Hamburg"), not a country."""
    return len(segments) > 1 and len(segments[0]) <= 3 and segments[0].isupper()


class TitleLines:
    """Mixin of the page (gigflow.adapters.generic.page.Page): the lines beside the title, once per page."""

    def _meta_line(self):
        """The line of facts right after the title, split at its separators ("Bigger Games · Istanbul · posted 15
        March", "Acme | Berlin | Full-time"): (employer, place, date text, element) or None. The employer is the
        first segment that is no place, date, salary, employment type, remote word or label, and counts only
        beside a place or a date (the line's structure says what its segments are)."""
        if hasattr(self, "_meta_line_cache"):
            return self._meta_line_cache
        self.title()  # the line is read beside the title element
        found = None
        for text, node, leafy in self._lines_after_title(3):
            segments = line_segments(text)
            if len(segments) < 2 or len(segments) > 6:
                continue
            place = next((s for i, s in enumerate(segments) if place_score(s) >= 0.67
                          and not (i == 0 and leads_with_a_code(segments))), None) or \
                next((s for s in segments if REMOTE.match(s) and len(s.split()) <= 4), None)
            dated = next((s for s in segments if POSTED_PHRASE.search(s) or normalise_date(s)), None)
            others = [s for s in segments if s not in (place, dated) and not parse_salary(s)
                      and not employment_types(s) and not REMOTE.search(s) and not INLINE_LABEL.match(s)
                      and not re.search(r"\d", s)]
            # The employer leads the line ("Acme · Berlin · Full-time"); a trailing word ("Office") is no firm.
            employer = others[0] if others and others[0] == segments[0] and (place or dated) and \
                not WORK_MODE_ONLY.match(others[0]) and self._plausible_employer(others[0]) \
                and not self._is_site_name(others[0]) and len(others[0].split()) <= 8 else None
            if place or employer:
                found = (employer, place, dated or (found[2] if found else None), node)
                # "Москва · Полная занятость · Офис": the line's employment types are the job's.
                self._meta_line_types = [s for s in segments if employment_types(s)]
                break
            if dated and POSTED_PHRASE.search(dated) and found is None:
                found = (None, None, dated, node)  # "Posted 3 days ago · Full-time": a date, and no place yet
        self._meta_line_cache = found
        return found

    def _lines_after_title(self, limit: int = 3):
        """Short text lines right after the title element, in document order (company, place, ...). A title that
        a page builder wraps alone in its own blocks is read from the outermost of them; a following block that
        only wraps one line is read as that line, and a block of two to six short items (spans of a meta line:
        "St. George, UT" "Full-time" "Posted 2026-02-19") as one line of them joined with " · "."""
        element = getattr(self, "title_element", None)
        if element is None:
            return []
        if "_lines_cache" in self.__dict__ and self._lines_cache[0] == (element, limit):
            return self._lines_cache[1]
        anchor = element
        for _ in range(MAX_WRAPPERS):
            parent = anchor.getparent()
            if parent is None or parent.tag in PAGE_TAGS or parent.tag in ("main", "article") or \
                    any(isinstance(n.tag, str) for n in anchor.itersiblings()):
                break
            anchor = parent
        lines = []
        for node in anchor.itersiblings():
            if not isinstance(node.tag, str):
                continue
            found = self._line_of(node)
            if found is None:
                continue
            text, line_node, leafy = found
            hidden = "display:none" in (line_node.get("style") or "").replace(" ", "")
            if text and len(text) <= 100 and not hidden:
                lines.append((text, line_node, leafy))
            if len(lines) >= limit:
                break
        self._lines_cache = ((element, limit), lines)
        return lines

    def _line_of(self, node, depth: int = 0):
        """(text, element, leafy) of a block read as one line, or None (a block of text, or nothing)."""
        text = clean_text(own_text(node), MAX_FIELD)
        if not text:
            return None
        children = [c for c in node if isinstance(c.tag, str) and clean_text(own_text(c), MAX_FIELD)]
        loose = [t for t in [node.text] + [c.tail for c in node] if not SEPARATOR_ONLY.match(t or "")]
        if node.tag not in HEADINGS and len(text) <= 200:
            # An action beside the line ("New York, United States" [Apply now]) is a control, not part of it.
            kept = [c for c in children if not is_control(c)]
            if len(kept) == 1 and len(children) > 1 and not loose and depth < MAX_WRAPPERS:
                return self._line_of(kept[0], depth + 1)
            if len(children) == 1 and not loose and depth < MAX_WRAPPERS:
                return self._line_of(children[0], depth + 1)  # a block that only wraps one line
            # Items of one line: spans of a meta line, a tag list, or "<b>Acme</b> · Berlin <span>Remote</span>"
            # (text between the items counts when a separator marks it; else the block is a sentence).
            inline = children and not any(g.tag in BLOCK_TAGS for c in children for g in c.iter())
            if inline and (not loose or any(re.search(r"[·•|]", t) for t in loose)):
                pieces = [node.text] + [piece for c in children for piece in (own_text(c), c.tail)]
                items = []
                for piece in pieces:
                    for item in re.split(r"\s*[·•|]\s*", piece or ""):
                        item = clean_text(item.strip(" ,-–—/"), MAX_FIELD)
                        if item:
                            items.append(item)
                if 2 <= len(items) <= 6 and all(len(item) <= 60 for item in items):
                    return " · ".join(items), node, True
        # A line is one short text: a heading or an element of at most two inline children, not a block.
        leafy = node.tag in HEADINGS or (len(node) <= 2 and not any(child.tag in BLOCK_TAGS for child in node))
        return text, node, leafy
