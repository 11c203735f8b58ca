"""The job's title: candidates (headings of any level, title-like classes, a labelled title, prominent elements)
scored by agreement with `<title>`/`og:title` and the labels (the tables of title_rules); site names, section
headings and listing items lose. A page with no candidate scored MIN_TITLE_SCORE or more has no title."""

from __future__ import annotations

import dataclasses
import re

from gigflow.adapters.common import clean_text
from gigflow.adapters.gazetteer import place_score
from gigflow.adapters.generic.patterns import (AT_EMPLOYER, BARE_SOURCES, CAREERS_AT, EMPLOYER_ATTR, HEADINGS,
                                               HIRING_TITLE, JOB_IN_TITLE, LABELLED_TITLE_SCORE, LISTING_WORDS,
                                               LOCATION_ATTR, MAX_CANDIDATES, MIN_TITLE_SCORE, PROMINENT, TITLE_CLASS,
                                               WORD_SPLIT)
from gigflow.adapters.generic.rules import score as rules_score
from gigflow.adapters.generic.rules import vetoed
from gigflow.adapters.generic.text import heading_text, is_section_heading, own_text
from gigflow.adapters.generic.title_rules import (BADGE_CLASS, EVIDENCE, LISTING_VETO, PROMINENCE, RIVAL_H1, VETOES,
                                                  Candidate, Reading, TitleContext, announces_hiring, class_and_id)
from gigflow.adapters.text_patterns import normalise
from gigflow.adapters.types import Evidence
from gigflow.vacancy_status import closed_badge, without_badge

LISTING_VETO_TABLE = (LISTING_VETO,)
OG_TITLE_PATTERN_SCORE = 2.5  # "X hiring <title> in Y": og:title's own word for the title, alone
TITLE_PART_SCORE = 1.0  # a part of the document title that og:title repeats, with no body evidence
LONE_TITLE_PART_SCORE = 0.8  # a part only one document title carries: below MIN_TITLE_SCORE alone
TITLE_PART_OVER_HEADING = 1.0  # a title part a heading begins with: the fuller title, above the heading
HIRING_SUBTITLE_SCORE = 3.0  # the line under "Acme recrute": as an h1 would score
SUBTITLE_MAX_WORDS = 12


class TitleFinder:
    """Mixin of the page (gigflow.adapters.generic.page.Page): the title and its candidates."""

    def _title_keys(self) -> tuple[list[str], list[str]]:
        """(whole document titles, their parts that are not a site hierarchy), normalised once per page."""
        if not hasattr(self, "_keys"):
            wholes = [normalise(t) for t in self.doc_titles]
            parts = []
            for raw_parts in self._title_parts:
                normalised = [normalise(p) for p in raw_parts]
                # "Jobs | Jobs search | Job detail": parts inside one another are a site's hierarchy, not a title.
                parts.extend(part for part in normalised
                             if not any(other != part and (part in other or other in part) for other in normalised))
            self._keys = (wholes, parts)
            self._agreements: dict[str, float] = {}
        return self._keys

    def _agreement(self, text: str) -> float:
        """How much the document title backs a candidate: 4 for a whole part of it (or most of one), 2 for a
        smaller piece of one (several words); 0 for a word or two inside a longer title."""
        wholes, parts = self._title_keys()
        key = normalise(text)
        if key in self._agreements:
            return self._agreements[key]
        best = 0.0
        if len(key) >= 3:
            if any(key in whole and len(key) >= 0.4 * len(whole) for whole in wholes):
                best = 4.0  # several parts of the title at once ("Developer - ERP (m/w/d) - Job at X - site")
            elif any(key == part or (key in part and len(key) >= 0.5 * len(part)) for part in parts):
                best = 4.0
            elif len(key.split()) >= 2 or len(key) >= 8:
                spaced = f" {WORD_SPLIT.sub(' ', key).strip()} "
                if any(spaced in f" {WORD_SPLIT.sub(' ', part).strip()} " for part in parts if key in part):
                    best = 2.0
            if not best:
                # "Bewerbung als Quereinsteiger (m/w/d) Fahrkartenkontrolleur (Bremen)" against the <title> part
                # "Bewerbung Quereinsteiger (m/w/d) Fahrkartenkontrolleur Bremen": nearly the same words.
                mine = {w for w in WORD_SPLIT.split(key) if len(w) > 1}
                for part in parts:
                    theirs = {w for w in WORD_SPLIT.split(part) if len(w) > 1}
                    shared = len(mine & theirs)
                    if len(theirs) >= 3 and shared >= 0.8 * len(theirs) and shared >= 0.6 * len(mine):
                        best = 3.0
                        break
        self._agreements[key] = best
        return best

    def _site_section_texts(self) -> set[str]:
        """Short texts of navigation, header and footer (breadcrumbs excluded: their last item is often the job;
        so is a menu's current item, marked as such: on a job's page, a tab naming the job)."""
        texts, crumbs = set(), set()
        for element, chrome in self._chrome.items():
            parent = element.getparent()
            if (parent is not None and parent in crumbs) or \
                    "breadcrumb" in f"{element.get('class') or ''} {element.get('id') or ''}".lower():
                crumbs.add(element)
                continue
            if _marked_current(element):
                continue
            if chrome and element.tag == "h1" and self._weak_chrome(element):
                continue  # a title block classed "title-header" is the page's own (as _title_readings reads it)
            if chrome and element.text is not None:
                text = normalise(element.text)
                if 2 < len(text) < 60:
                    texts.add(text)
        return texts

    def title_candidates(self) -> list[Candidate]:
        """Every element that may hold the title, scored by the tables of title_rules, best first; then a labelled
        title without an element of its own, the document title's parts and og:title's telling patterns."""
        context = self._title_context()
        found: dict[str, Candidate] = {}
        scored = 0
        for reading in self._title_readings(context):
            if vetoed(reading, context, VETOES):
                continue
            scored += 1
            if scored > MAX_CANDIDATES:
                break
            if vetoed(reading, context, LISTING_VETO_TABLE):
                continue
            score, marks, applied = rules_score(reading, context, PROMINENCE + EVIDENCE)
            source = reading.tag if reading.heading else ("class" if reading.classed else f"{reading.tag} text")
            if reading.key not in found or found[reading.key].score < score:
                found[reading.key] = Candidate(reading.text, score, source + marks, reading.element, applied)
        h1s = [c for c in found.values() if c.source.split()[0] == "h1" and c.score > 0]
        if len(h1s) >= 2:
            for candidate in h1s:
                candidate.score, marks, applied = rules_score(candidate, h1s, RIVAL_H1, start=candidate.score)
                candidate.source += marks
                candidate.rules += applied
        for labelled_title in self.labels.get("title", []):
            # "Job Title: Welder" inside a paragraph: the value has no element of its own to score above.
            key = normalise(labelled_title.value)
            if key not in found and not is_section_heading(labelled_title.value) and 3 <= len(key) <= 150 \
                    and not self._in_chrome(labelled_title.element) \
                    and not (_a_badge(labelled_title, key) and any(c.score > 0 for c in found.values())):
                found[key] = Candidate(labelled_title.value, LABELLED_TITLE_SCORE + self._agreement(key),
                                       "label", labelled_title.element)
        self._title_parts_as_candidates(found)
        self._hiring_subtitles(found)
        for pattern in (HIRING_TITLE, JOB_IN_TITLE):
            match = pattern.match(self.meta.get("og:title", ""))
            if match:
                key = normalise(match.group("title"))
                if key not in found or found[key].score < OG_TITLE_PATTERN_SCORE:
                    found[key] = Candidate(match.group("title"), OG_TITLE_PATTERN_SCORE, "og:title pattern")
        return sorted(found.values(), key=lambda c: -c.score)

    def _title_context(self) -> TitleContext:
        other_fields = {normalise(v.value) for field in ("employer", "location") for v in self.labels.get(field, [])}
        other_fields.update(normalise(found[0]) for found in (self._by_attribute(EMPLOYER_ATTR),
                                                              self._by_attribute(LOCATION_ATTR, joined=True)) if found)
        signatures: dict[tuple, int] = {}
        for element in self._chrome:
            key = (element.tag, element.get("class"))
            signatures[key] = signatures.get(key, 0) + 1
        return TitleContext(page=self, labelled_titles={normalise(v.value) for v in self.labels.get("title", [])},
                            other_fields=other_fields, signatures=signatures,
                            section_texts=self._site_section_texts())

    def _title_readings(self, context: TitleContext):
        """Elements that may hold the title, in document order: headings, title-classed elements, and prominent
        elements whose own text the document title or a label backs."""
        titles_lower = " | ".join(self.doc_titles).lower()
        for element, chrome in self._chrome.items():
            tag = element.tag
            heading = tag in HEADINGS
            classed = bool(element.get("class") or element.get("id")) and tag not in ("a", "img", "button") and \
                bool(TITLE_CLASS.search(element.get("class") or "") or TITLE_CLASS.search(element.get("id") or ""))
            if not heading and not classed:
                if tag not in PROMINENT:
                    continue
                own = (element.text or "").strip()
                # Prominent elements count by their own text, and only when the title or a label backs it.
                if len(own) < 3 or not (" ".join(own.split()).lower() in titles_lower
                                        or normalise(own) in context.labelled_titles):
                    continue
                text = clean_text(own, 300)
            else:
                text = clean_text(heading_text(element) if heading else own_text(element), 300)
            if not text or not 3 <= len(text) <= 150 or not re.search(r"[^\W\d_]", text):
                continue
            agreement = self._agreement(text)
            labelled = normalise(text) in context.labelled_titles
            if not heading and not classed and not (agreement or labelled):
                continue
            if chrome and tag == "h1" and self._weak_chrome(element):
                chrome = False  # a title block classed "section-header" is the page's own, not the site's header
            yield Reading(element, text, normalise(text), heading, classed, chrome, agreement, labelled)

    def _title_parts_as_candidates(self, found: dict[str, Candidate]) -> None:
        """A part of the document title that a heading only begins with ("Engineer (AME) — Observer Programme" vs
        the h1 "Engineer — Flight Safety ...") is the fuller title; a part alone, with no body evidence, is the
        last resort (JavaScript shells show nothing else)."""
        headings = [c for c in found.values() if c.source.split()[0] in HEADINGS and c.score > 0
                    and "<title>" not in c.source]
        for parts in self._title_parts:
            normalised = [normalise(p) for p in parts]
            for part, key in zip(parts, normalised):
                if key in found or len(key.split()) < 2 or is_section_heading(part) or self._is_site_name(part) \
                        or place_score(part) >= 0.5 or CAREERS_AT.match(part) or LISTING_WORDS.search(part) or \
                        any(other != key and (key in other or other in key) for other in normalised):
                    continue
                words = key.split()
                # Alone, a part counts only when the title and og:title both carry it.
                score = TITLE_PART_SCORE if sum(key in map(normalise, other) for other in self._title_parts) >= 2 \
                    else LONE_TITLE_PART_SCORE
                source = "<title> part"
                for heading in headings:
                    shared = 0
                    for mine, theirs in zip(words, normalise(heading.text).split()):
                        if re.sub(r"\W", "", mine) != re.sub(r"\W", "", theirs):
                            break
                        shared += 1
                    # A heading that goes on past the whole part with words of its own ("Vacature kok (koude
                    # keuken)" under the part "Vacature kok") is the fuller title itself; not one that goes on
                    # with a bar and a field ("Tester | Full-time Position") or a full stop.
                    rest = normalise(heading.text)[len(key):] if normalise(heading.text).startswith(key) else ""
                    fuller = shared == len(words) and bool(re.search(r"[^\W\d_]", rest)) \
                        and not rest.lstrip().startswith(("|", "｜"))
                    if shared >= 2 and shared >= 0.5 * len(words) and not fuller \
                            and heading.score + TITLE_PART_OVER_HEADING > score:
                        score = heading.score + TITLE_PART_OVER_HEADING
                        source = f"<title> part ~ {heading.source.split()[0]}"
                found[key] = Candidate(part, score, source, None)

    def _hiring_subtitles(self, found: dict[str, Candidate]) -> None:
        """The line right after a heading that only announces who hires ("Acme recrute" over "Data Engineer") is
        the job's name: scored as the heading would be, with the document title's backing."""
        for candidate in list(found.values()):
            element = candidate.element
            if element is None or element.tag not in HEADINGS or not announces_hiring(candidate.text):
                continue
            line = next((node for node in element.itersiblings() if isinstance(node.tag, str)), None)
            if line is None:
                continue
            text = clean_text(line.text_content(), 300)
            key = normalise(text)
            if not text or not 3 <= len(text) <= 120 or len(text.split()) > SUBTITLE_MAX_WORDS \
                    or is_section_heading(text):
                continue
            score = HIRING_SUBTITLE_SCORE + self._agreement(text)
            if key not in found or found[key].score < score:
                found[key] = Candidate(text, score, f"line after '{candidate.text[:40]}'", line)

    def _described(self, candidate: Candidate) -> bool:
        """A <title> part that og:title repeats and the page's description begins with (and goes on) names this
        page's own item, even where the page also lists many others (a board's posting inside its link-heavy frame)."""
        if candidate.source != "<title> part" or candidate.score < 1.0:
            return False
        key = normalise(candidate.text)
        return any(normalise(self.meta.get(k, "")).startswith(key) and len(normalise(self.meta.get(k, ""))) >
                   len(key) + 20 for k in ("description", "og:description"))

    def title(self) -> tuple[str, Evidence] | None:
        if self._title is not None:
            return self._title or None
        candidates = self.title_candidates()
        if candidates and self.lists_other_pages():
            # A page of many linked items is a listing: a bare h2-h6 or a lone <title> part names a section of it,
            # not one vacancy (detail pages carry their title in an h1, a label or the document title).
            candidates = [c for c in candidates if c.source not in BARE_SOURCES or self._described(c)] + \
                [Candidate(c.text, min(c.score, 0.0), f"{c.source}, on a listing", c.element)
                 for c in candidates if c.source in BARE_SOURCES and not self._described(c)]
            candidates.sort(key=lambda c: -c.score)
        best = candidates[0] if candidates and candidates[0].score >= MIN_TITLE_SCORE else None
        self.rejected_titles = [c for c in candidates if c is not best][:5] if best is None else []
        if best is None:
            self._title = ()
            return None
        badge = closed_badge(best.element) if best.element is not None else None
        title = without_badge(best.text, badge) if badge is not None else None
        if title:  # "Designer hired": the badge is the job's state (closed_notice), not its title
            best = dataclasses.replace(best, text=title)
        if best.source.startswith("<title> part"):
            # "Data Engineer at Crays | Careers": the part names the job and who hires it; the job is the first half
            best = dataclasses.replace(best, text=_without_employer(best.text))
        method = "heading" if best.source.split()[0] in HEADINGS else "meta" if best.element is None else "css"
        where = self.path(best.element) if best.element is not None else "og:title"
        confidence = round(min(0.85, 0.55 + best.score / 20), 3)
        self._title = (best.text, Evidence(method=method, snippet_or_path=f"{where} [{best.source}]"[:500],
                                           confidence=confidence))
        self.title_element = best.element
        self.title_as_written = best.text
        if best.source.split()[0] in HEADINGS:
            # "Junior Full Stack Engineer at JobRunr" in the h1: the job is the part before a plausible employer
            # (which the employer is then read from); "Nurse at night" keeps its words.
            match = AT_EMPLOYER.match(best.text.strip()) if len(best.text) <= MAX_TITLE_PART else None
            if match and not match.group("location") and self._plausible_employer(match.group("employer")):
                self._title = (match.group("title").strip(), self._title[1])
        return self._title


def _a_badge(labelled, key: str) -> bool:
    """The labelled value is a badge ("Position: <span class=badge>POSTDOC</span>"): the job's category, its title
    only where the page offers no other."""
    scope = labelled.element.getparent() if labelled.element.getparent() is not None else labelled.element
    return any(isinstance(el.tag, str) and BADGE_CLASS.search(class_and_id(el))
               and normalise(" ".join(" ".join(el.itertext()).split())) == key for el in scope.iter())


MAX_TITLE_PART = 200  # a document title's part read for "at <employer>" (bounded on a hostile page)


def _without_employer(part: str) -> str:
    """A document title's part less the employer it names after "at" ("Data Engineer at Crays" -> "Data
    Engineer"): the job's name is the part before it."""
    match = AT_EMPLOYER.match(part.strip()) if len(part) <= MAX_TITLE_PART else None
    return match.group("title") if match else part


_CURRENT_CLASS = re.compile(r"(?:^|[\s_-])(?:active|current|selected)(?:$|[\s_-])", re.I)


def _marked_current(element) -> bool:
    """A menu item marked as the page's own: aria-current, aria-selected, or a class word active/current/selected."""
    if (element.get("aria-current") or "").strip().lower() not in ("", "false") or \
            (element.get("aria-selected") or "").strip().lower() == "true":
        return True
    return bool(_CURRENT_CLASS.search(element.get("class") or ""))
