"""The location: where the page says the job is, strongest first (LOCATION_SOURCES).

Markup (microdata, a label, a class naming it), address markup, a 📍 line, the document title's "... in X", the
lines beside the title heading, the breadcrumb trail and the document title's parts, when the gazetteer knows them
as places. A marked value that names a way of working ("Work location: In person") comes last.
"""

from __future__ import annotations

import re

from gigflow.adapters.common import clean_text
from gigflow.adapters.gazetteer import place_parts, place_score
from gigflow.adapters.generic.patterns import (ADDRESS_ATTR, BREADCRUMB, HIRING_TITLE, JOB_IN_TITLE, LOCATION_ATTR,
                                               MAX_FIELD, ORG_WORDS, PAGE_TAGS, PLACE_MARKERS, TITLE_SEPARATOR,
                                               WORK_MODE_ONLY)
from gigflow.adapters.generic.lines import leads_with_a_code, line_segments
from gigflow.adapters.generic.rules import Source, first_found
from gigflow.adapters.generic.text import joined_text, own_text
from gigflow.adapters.job_facts import REMOTE
from gigflow.adapters.text_patterns import normalise
from gigflow.adapters.types import Evidence

LOCATION_MARKS = ("jobLocation", "location", LOCATION_ATTR, True)
PLACE_AT_END = re.compile(r"(?:\s+(?:in|à|in der|im|te|en|w|v|ve|в|във|во)\s+|\s+[-–—]\s+)([^-–—()]{2,60})$")


FACTS_LINE_SEPARATOR = re.compile(r"\s+[|·•]\s+")

# "Per la sede di Lomagna cerchiamo", "For our office in Leeds we are looking for", "Für unseren Standort Hamburg
# suchen wir", a line opening "Sede di Lomagna, ...": the job's own text names the office it hires for. The phrase marks the place, so a town the
# gazetteer does not know is read too; the place is one to three capitalised words.
OFFICE_IN_TEXT = re.compile(
    r"(?:^|(?i:\b(?:for|at|in|to|join|für|an|am|per|presso|pour|para|en|voor|bij|till|för|på|na|dla)\s+"
    r"(?:our|unsere[nmr]?|unser|la|il|lo|notre|nuestra|nuestro|el|onze|ons|vårt|vår|nasz\w*)\s+))"
    r"(?i:(?:new\s+|neue[nmr]?\s+|nouvelle\s+|nuova\s+|nueva\s+|nieuwe\s+)?"
    r"(?:(?:standort|niederlassung|filiale|büro|werk)(?:\s+(?:in|im))?|"
    r"(?:office|site|location|branch|plant|store|sede|ufficio|stabilimento|agence|bureau|établissement|oficina|"
    r"sucursal|planta|vestiging|kantoor|kontor|filial|biuro|oddział)"
    r"\s+(?:in|di|de|d'|en|à|a|te|i|at|w|located in|based in))\s+)"
    r"([A-ZÀ-ÞĀ-ſ][\w'’.-]{1,30}(?:[ -](?:[A-ZÀ-ÞĀ-ſ][\w'’.-]{1,30}|am|an|de|del|di|la|le|sur|upon)){0,2})")
OPENING_TEXT_CHARS = 1500


def only_places(value: str) -> str:
    """A facts line marked as the location ("📍 Memmingen | Vollzeit | Unbefristet"): its parts the gazetteer knows
    as places, where some other part is not one (the employment type, the contract); else the value as it stands."""
    text = value.strip().lstrip("".join(PLACE_MARKERS)).strip()
    parts = [part.strip() for part in FACTS_LINE_SEPARATOR.split(text) if part.strip()]
    places = [part for part in parts if place_score(part) > 0]
    return ", ".join(places) if places and len(places) < len(parts) else value


class LocationFinder:
    """Mixin of the page (gigflow.adapters.generic.page.Page): the location and the finders of its sources."""

    def location(self) -> tuple[str, Evidence] | None:
        # The lines beside the title as they stand when the location is asked for: none yet when the title has not
        # been read (the chain's check of JSON-LD against the page asks for the location alone).
        self._location_lines = self._lines_after_title(3)
        found = first_found(self, LOCATION_SOURCES, accept=lambda value: not self._names_the_company(value))
        return (only_places(found[0]), found[1]) if found else None

    def _names_the_company(self, text: str) -> bool:
        """The site's or the source's company name read as a place ("Show - KALO - ...": a gazetteer knows a
        village of that name): the name is the employer, not where the job is."""
        key = normalise(text)
        return key == normalise(self.context.company or "") or (len(key.split()) <= 2 and self._is_site_name(text))

    def _marked_location(self, kind: str, work_mode: bool = False) -> tuple[str, str] | None:
        found = self.marked(*LOCATION_MARKS)
        if found and found[0] == kind and bool(WORK_MODE_ONLY.match(found[1])) == work_mode:
            return found[1:]
        return None

    def _address_markup(self) -> tuple[str, str] | None:
        for element in self.facts:
            if element.tag == "address" or ADDRESS_ATTR.search(element.get("class") or ""):
                text = clean_text(joined_text(element), MAX_FIELD)
                if text and place_score(text) > 0:
                    return text, f"{self.path(element)} address markup"
        return None

    def _pinned_place(self) -> tuple[str, str] | None:
        for element in self.facts:
            text = (element.text or "").strip()
            if text.startswith(PLACE_MARKERS):
                place = clean_text(text.lstrip("".join(PLACE_MARKERS)), MAX_FIELD)
                # a pin marks a place; a globe also starts a sentence ("🌎 We are a hybrid team …"): only a
                # short line that names one
                if place and (text.startswith("📍") or len(place.split()) <= 8 and (
                        place_score(place) >= 0.5 or REMOTE.match(place))):
                    return place, f"{self.path(element)} {text[0]}"
        return None

    def _in_x_in_doc_title(self) -> tuple[str, str] | None:
        key, match = self.meta_title_match(HIRING_TITLE, JOB_IN_TITLE)
        return (match.group("location"), f"{key} '... in X'") if match else None

    def _place_in_meta_line(self) -> tuple[str, str] | None:
        meta = self._meta_line()
        return (meta[1], f"{self.path(meta[3])} beside the title, its place") if meta and meta[1] else None

    def _place_line(self) -> tuple[str, str] | None:
        for text, node, leafy in self._location_lines:
            if leafy and place_score(text) >= 0.5:
                parts = [p.strip() for p in re.split(r"\s*,\s*", text) if p.strip()]
                known = [p for p in parts if place_score(p) >= 0.67]
                if known and len(known) < len(parts) and ORG_WORDS.search(parts[0]):
                    # "St Mary's Primary School, Bristol": the organisation's line; its place is the location.
                    text = ", ".join(known)
                segments = line_segments(text)
                if leads_with_a_code(segments):  # "IT | Zentrale Hamburg": the rest is the place
                    text = " · ".join(segments[1:])
                text = self._without_the_title(text)
                return text, f"{self.path(node)} beside the title"
        return None

    def _without_the_title(self, text: str) -> str:
        """"Laravel Developer / Prishtine, Kosovo" under the title "Laravel Developer": the place after the title."""
        title = self._title[0] if self._title else ""
        if title and text[:len(title)].casefold() == title.casefold():
            rest = text[len(title):].lstrip(" /|-–—·,:")
            if rest and place_score(rest) >= 0.5:
                return rest
        return text

    def _remote_line(self) -> tuple[str, str] | None:
        """"Remote (Europe)", "Anywhere": a remote job's place is the line itself (job_facts flags it remote)."""
        for text, node, leafy in self._location_lines:
            if leafy and REMOTE.match(text) and len(text.split()) <= 4:
                return text, f"{self.path(node)} beside the title, remote"
        return None

    def _line_the_doc_title_repeats(self) -> tuple[str, str] | None:
        """"Tetovo, Macedonia, Macedonia" (a country the gazetteer names differently): a partly known place that the
        document title repeats is the place too."""
        for text, node, leafy in self._location_lines:
            if leafy and place_score(text) > 0 and self._in_doc_title(place_parts(text)[0]):
                return text, f"{self.path(node)} beside the title, in <title>"
        return None

    def _place_in_breadcrumb(self) -> tuple[str, str] | None:
        """"Práce › Praha › Programátor", "Jobs / Germany / Berlin / Welder": the deepest breadcrumb item that the
        gazetteer knows as a place (a board files its postings under their place)."""
        for trail in self.root.iter():
            if not isinstance(trail.tag, str) or trail.tag in PAGE_TAGS:
                continue
            named = f"{trail.get('class') or ''} {trail.get('id') or ''} {trail.get('aria-label') or ''} " \
                    f"{trail.get('itemtype') or ''}"
            if not BREADCRUMB.search(named):
                continue
            items = [clean_text(own_text(a), MAX_FIELD) for a in trail.iter("a", "li", "span")
                     if len(a) == 0 or a.tag == "a"]
            if not items:
                items = [p.strip() for p in re.split(r"\s*[›»>/|]\s*", own_text(trail))]
            title = normalise(self.title()[0]) if self.title() else ""
            places = [i for i in items if i and len(i) <= 60 and normalise(i) != title and place_score(i) >= 0.67]
            if places:
                return places[-1], f"{self.path(trail)} breadcrumb"
            break  # the page's breadcrumb trail names no place
        return None

    def _place_part_of_doc_title(self) -> tuple[str, str] | None:
        for parts, name in zip(self._title_parts, ("<title>", "og:title", "twitter:title")):
            for part in parts:
                # "Careers | UNION" beside "© 2014 Union, LLC": the site's own name, though a town bears it too
                if place_score(part) >= 0.67 and not self._is_owner_name(part) and not self._is_site_name(part):
                    return part, f"{name} part"
        return None

    def _title_text(self, which: str) -> str | None:
        """The title heading's text ("title heading") or the first document title ("<title>")."""
        if which == "title heading":
            title = self.title()
            return title[0] if title else None
        return self.doc_titles[0] if self.doc_titles else None

    def _place_in_brackets(self, which: str) -> tuple[str, str] | None:
        """"Fahrkartenkontrolleur (Bremen)": a place the title carries in brackets, when the gazetteer knows it."""
        for match in re.finditer(r"\(([^()]{2,60})\)", self._title_text(which) or ""):
            if place_score(match.group(1)) >= 0.67:
                return match.group(1).strip(), f"{which} ({match.group(1)[:40]})"
        return None

    def _place_at_title_end(self, which: str) -> tuple[str, str] | None:
        """"Welder in Geel", "Welder - Geel", "Персонал в Германия": a place at the title's end."""
        text = self._title_text(which)
        if text is None:
            return None
        match = PLACE_AT_END.search(TITLE_SEPARATOR.split(text)[0])
        if match and place_score(match.group(1)) >= 0.67:
            return match.group(1).strip(), f"{which} ends in a place"
        return None

    def _office_in_opening(self) -> tuple[str, str] | None:
        """The office the job's own opening names ("Per la sede di Lomagna cerchiamo ..."), in the first
        OPENING_TEXT_CHARS characters of the job's text after its title."""
        title = getattr(self, "title_element", None)
        seen = 0
        after = title is None
        for element in self.facts:
            if element is title:
                after = True
                continue
            if not after or element.tag in ("a", "button", "label", "option"):
                continue
            text = " ".join((element.text or "").split())
            if not text:
                continue
            match = OFFICE_IN_TEXT.search(text)
            if match and not self._names_the_company(match.group(1)):
                return match.group(1).rstrip(".'’-"), f"{self.path(element)} the office its text names"
            seen += len(text)
            if seen > OPENING_TEXT_CHARS:
                break
        return None

    def _in_doc_title(self, text: str) -> bool:
        """Whether a whole part of the document title holds the text (a place repeated there)."""
        return len(text) > 2 and any(text in place_parts(part) for parts in self._title_parts for part in parts)


LOCATION_SOURCES = (
    Source("microdata", lambda page: page._marked_location("itemprop"), "css", 0.75,
           "schema.org microdata: itemprop=jobLocation"),
    Source("label", lambda page: page._marked_location("label"), "label", 0.65, "a label row (\"Location: Geel\")"),
    Source("class naming the location", lambda page: page._marked_location("attribute"), "css", 0.6,
           "an element whose class, id or data attribute names the location (job-location)"),
    Source("address markup", lambda page: page._address_markup(), "css", 0.55,
           "an <address> or address-classed element the gazetteer finds a place in"),
    Source("pin marker", lambda page: page._pinned_place(), "text-pattern", 0.5, "a line that begins with 📍"),
    Source("in X in the document title", lambda page: page._in_x_in_doc_title(), "meta", 0.5,
           "\"Acme hiring Welder in Geel\", \"Welder Job in Geel\" in og:title or <title>"),
    Source("place of the facts line", lambda page: page._place_in_meta_line(), "gazetteer", 0.5,
           "the place segment of the facts line after the title"),
    Source("place line beside the title", lambda page: page._place_line(), "gazetteer", 0.5,
           "a line after the title the gazetteer knows as a place"),
    Source("remote line beside the title", lambda page: page._remote_line(), "text-pattern", 0.5,
           "\"Remote (Europe)\" after the title"),
    Source("line the document title repeats", lambda page: page._line_the_doc_title_repeats(), "gazetteer", 0.45,
           "a partly known place after the title that the document title repeats"),
    Source("office the job's text names", lambda page: page._office_in_opening(), "text-pattern", 0.45,
           "\"For our office in Leeds we are looking for\", \"Per la sede di Lomagna cerchiamo\""),
    Source("breadcrumb place", lambda page: page._place_in_breadcrumb(), "gazetteer", 0.4,
           "the deepest breadcrumb item the gazetteer knows as a place"),
    Source("place part of the document title", lambda page: page._place_part_of_doc_title(), "gazetteer", 0.4,
           "a part of the document title that is a known place (\"Welder | Geel | Acme\")"),
    Source("place in brackets in the title", lambda page: page._place_in_brackets("title heading"), "gazetteer",
           0.45, "\"Fahrkartenkontrolleur (Bremen)\""),
    Source("place at the title's end", lambda page: page._place_at_title_end("title heading"), "gazetteer", 0.4,
           "\"Welder in Geel\", \"Welder - Geel\""),
    Source("place in brackets in the document title", lambda page: page._place_in_brackets("<title>"), "gazetteer",
           0.45, "\"Welder (Geel) | Acme\""),
    Source("place at the document title's end", lambda page: page._place_at_title_end("<title>"), "gazetteer", 0.4,
           "\"Welder in Geel | Acme\""),
    # "Work location: In person": a way of working, not a place; the page's place wins, this is the last.
    Source("work mode in microdata", lambda page: page._marked_location("itemprop", work_mode=True), "css", 0.75,
           "itemprop=jobLocation naming a way of working"),
    Source("work mode in a label", lambda page: page._marked_location("label", work_mode=True), "label", 0.65,
           "\"Work location: In person\""),
    Source("work mode in a class", lambda page: page._marked_location("attribute", work_mode=True), "css", 0.6,
           "a location-classed element naming a way of working"),
)
