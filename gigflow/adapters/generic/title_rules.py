"""The title's evidence as tables: what keeps an element out of the title candidates (`VETOES`, `LISTING_VETO`), how
prominent it is (`PROMINENCE`), what backs or weakens its text (`EVIDENCE`), and how an h1 fares beside another h1
(`RIVAL_H1`). `title.TitleFinder` reads the page's elements into `Reading`s and scores them with these tables."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from gigflow.adapters.gazetteer import place_score
from gigflow.adapters.generic.patterns import (ABOUT_HEADING, APPLY_WORDS, CAREERS_AT, EMPLOYER_ATTR, HIRING_HEADING,
                                               LISTING_WORDS, LOCATION_ATTR, SENTENCE_WORDS, SHORT_CODE_PAIR, WIDGET_CLASS,
                                               WIDGET_HEADING, WORD_SPLIT)
from gigflow.adapters.generic.rules import Rule, Veto
from gigflow.adapters.generic.text import (is_section_heading, is_slogan, labels_another_field, opens_a_section,
                                           own_text)

OPENING_QUOTES = "\"“„«'‘"
CLOSING_QUOTES = "\"”“»'’"


@dataclass
class Candidate:
    """A possible title: its text, score, source (how it was found and what backs it: its evidence), element, and
    the scoring rules that applied to it."""

    text: str
    score: float
    source: str
    element: object = None
    rules: tuple[Rule, ...] = ()


@dataclass(eq=False)
class Reading:
    """One element read as a possible title, with what the page says about its text."""

    element: object
    text: str
    key: str  # the text normalised
    heading: bool  # h1-h6
    classed: bool  # its class or id names a title
    chrome: bool  # inside the site's header, navigation or footer
    agreement: float  # how much the document title backs the text (TitleFinder._agreement: 0, 2, 3 or 4)
    labelled: bool  # a "Job title:" label gives the same text
    linked: bool | None = None  # whether it links to another page (decided when first asked: links_away)

    @property
    def tag(self) -> str:
        return self.element.tag

    @property
    def prominent(self) -> bool:
        return self.heading or self.classed


@dataclass
class TitleContext:
    """What the page says that every reading is weighed against (gathered once per page)."""

    page: object
    labelled_titles: set[str] = field(default_factory=set)
    other_fields: set[str] = field(default_factory=set)  # the employer's and the location's values
    signatures: dict = field(default_factory=dict)  # (tag, class) -> how many elements share it
    section_texts: set[str] = field(default_factory=set)  # short texts of the site's navigation and footer


def links_away(reading: Reading, context: TitleContext) -> bool:
    """Whether the element is (or holds as its text, or sits in) a link to another page."""
    if reading.linked is None:
        element, page = reading.element, context.page
        links = element.findall(".//a") if reading.tag != "a" else [element]
        around = next((a for a in element.iterancestors("a")), None)
        reading.linked = bool((links and any(page._links_elsewhere(a) for a in links)
                               and own_text(links[0]) == reading.text)
                              or (around is not None and page._links_elsewhere(around)))
    return reading.linked


def is_widget_heading(element, text: str, backed: bool = False) -> bool:
    """A heading of a form, dialog or widget: its words say so (unless the document title backs it: "Form
    Operator"), its class says so, or a form (or two input controls) follows it inside its own block."""
    if not backed and WIDGET_HEADING.search(text) and len(text.split()) <= 6:
        return True
    named = f"{element.get('class') or ''} {element.get('id') or ''}"
    if WIDGET_CLASS.search(named):
        return True
    parent = element.getparent()
    if parent is not None and element.tag != "h1":
        following = [n for n in element.itersiblings() if isinstance(n.tag, str)][:3]
        if any(n.tag == "form" or n.find(".//form") is not None or
               len(n.findall(".//input")) + len(n.findall(".//textarea")) >= 2 for n in following):
            return True
    return False


BADGE_CLASS = re.compile(r"(?:^|[\s_-])(?:badge|chip|pill|tag)(?:$|[\s_-])", re.I)


def class_and_id(element) -> str:
    return f"{element.get('class') or ''} {element.get('id') or ''}"


VETOES = (
    Veto("caption of a control", lambda c, p: any(a.tag in ("button", "label", "select", "option")
                                                  for a in c.element.iterancestors()),
         "a control's caption is never the vacancy's title"),
    Veto("hidden", lambda c, p: p.page._hidden(c.element), "a closed dialog's or a hidden widget's heading"),
    Veto("badge", lambda c, p: not c.heading and bool(BADGE_CLASS.search(class_and_id(c.element))),
         "a badge or tag (\"PHD\", \"POSTDOC\" beside \"Position\") names the job's category, not the job"),
    Veto("quotation", lambda c, p: c.text[:1] in OPENING_QUOTES and c.text.rstrip()[-1:] in CLOSING_QUOTES,
         "a quotation (a testimonial's heading), never a vacancy's title"),
    Veto("in the footer", lambda c, p: p.page._in_footer(c.element),
         "a footer repeats the site's name, never the vacancy"),
    Veto("slogan", lambda c, p: not c.labelled and is_slogan(c.text),
         "a sentence to the reader (\"Join us!\") is a site's slogan"),
    Veto("about heading", lambda c, p: not c.labelled and bool(ABOUT_HEADING.match(c.text)),
         "\"About Acme\": a section about the employer"),
    Veto("apply button words", lambda c, p: not c.labelled and bool(APPLY_WORDS.search(c.text))
         and len(c.text.split()) <= 3, "\"Apply now\": an action"),
    Veto("another field's value", lambda c, p: not c.labelled and c.key in p.other_fields,
         "the employer's or the place's value, however prominent"),
    Veto("another field's element",
         lambda c, p: not c.labelled and bool(EMPLOYER_ATTR.search(class_and_id(c.element))
                                              or LOCATION_ATTR.search(class_and_id(c.element))),
         "an element classed as the employer or the place"),
)

# Counted among the candidates a page may have (MAX_CANDIDATES) before it is vetoed.
LISTING_VETO = Veto("names a listing", lambda c, p: not c.labelled and bool(LISTING_WORDS.search(c.text)
                                                                              or CAREERS_AT.match(c.text)),
                    "a listing's heading (\"Open positions\", \"Careers at Acme\"): no vacancy is called that")

PROMINENCE = (
    Rule("h1 heading", lambda c, p: c.tag == "h1", 3.0, "the page's top heading"),
    Rule("h2 heading", lambda c, p: c.tag == "h2", 2.0, "a second-level heading"),
    Rule("h3 heading", lambda c, p: c.tag == "h3", 1.6, "a third-level heading"),
    Rule("h4 heading", lambda c, p: c.tag == "h4", 1.3, "a fourth-level heading"),
    Rule("h5 heading", lambda c, p: c.tag == "h5", 1.2, "a fifth-level heading"),
    Rule("h6 heading", lambda c, p: c.tag == "h6", 1.1, "a sixth-level heading"),
    Rule("title-classed element", lambda c, p: not c.heading and c.classed, 2.2,
         "its class or id says it holds a job's title (job-title, posting-name)"),
    Rule("plain text", lambda c, p: not c.prominent, 0.5,
         "a prominent element's own text, read only when the document title or a label backs it"),
)

EVIDENCE = (
    # A heading backed by the title beats a plain text backed by it: prominence is half the evidence.
    Rule("heading repeats the document title", lambda c, p: c.prominent and c.agreement == 4.0, 4.0,
         "a whole part of the document title (or most of one) says it", " = <title>"),
    Rule("heading shares the document title's words", lambda c, p: c.prominent and c.agreement == 3.0, 3.0,
         "nearly the same words as a part of the document title", " = <title>"),
    Rule("heading is a piece of a title part", lambda c, p: c.prominent and c.agreement == 2.0, 2.0,
         "several words inside a part of the document title", " = <title>"),
    Rule("text repeats the document title", lambda c, p: not c.prominent and c.agreement >= 2.5, 2.5,
         "a text the document title backs, counted below a heading it backs", " = <title>"),
    Rule("text is a piece of a title part", lambda c, p: not c.prominent and c.agreement == 2.0, 2.0,
         "a text with several words inside a part of the document title", " = <title>"),
    Rule("site section named in the navigation", lambda c, p: not c.chrome and not c.agreement
         and c.key in p.section_texts, -4.0, "the name of a site section, repeated in its navigation"),
    Rule("labelled title", lambda c, p: c.labelled, 3.0, "a \"Job title:\" label gives the same text", " = label"),
    Rule("in the site's chrome", lambda c, p: c.chrome, -3.0, "inside the site's header, navigation or footer"),
    Rule("names the site or its owner", lambda c, p: p.page._is_site_name(c.text) or p.page._is_owner_name(c.text),
         -6.0, "the site's or the employer's own name (a logo h1, a careers page's h1)"),
    Rule("announces who hires", lambda c, p: announces_hiring(c.text), -5.0,
         "\"Acme recrute\", \"Acme is hiring\": the employer announcing, the job's name stands beside it"),
    Rule("section heading", lambda c, p: is_section_heading(c.text), -5.0,
         "a section of a posting (\"Requirements\") or a field's label"),
    Rule("widget heading", lambda c, p: c.prominent and not c.labelled
         and is_widget_heading(c.element, c.text, bool(c.agreement)), -4.0,
         "\"Bewerbungsformular\", a dialog's or a share widget's heading"),
    Rule("ends with a colon", lambda c, p: c.text.endswith((":", "：")), -3.0, "a label, not a value"),
    Rule("labels another field", lambda c, p: labels_another_field(c.text), -4.0,
         "\"Post date: 12/06\", \"Location: Geel\": a fact with its label, not a title"),
    Rule("links to another page", lambda c, p: links_away(c, p), -2.5, "a heading that links away is a listing item"),
    Rule("one of many alike links", lambda c, p: links_away(c, p)
         and p.signatures.get((c.tag, c.element.get("class")), 0) >= 3, -2.5,
         "a linked heading of three or more alike: a list of jobs, not this one"),
    Rule("inside a list of alike items", lambda c, p: p.page._in_card_list(c.element), -3.0,
         "a heading inside one of many alike list items: a list of jobs, not this one"),
    Rule("long text", lambda c, p: len(c.text) > 100, -1.0, "longer than a job's name usually is"),
    # "AL/ML", "UX/UI" are abbreviations, not two state or country codes.
    Rule("names a place", lambda c, p: place_score(SHORT_CODE_PAIR.sub(r"\1\2", c.text)) > 0.5, -3.0,
         "a place repeated in the title (\"Welder - Geel - Acme\") is not the job"),
)


def announces_hiring(text: str) -> bool:
    """A bare hiring announcement ("Acme recrute", "Acme is hiring"), no job named after the verb."""
    match = HIRING_HEADING.match(text)
    return bool(match) and not match.group("job")


def _words(text: str) -> int:
    return len(WORD_SPLIT.split(text.strip()))


# Read over the page's h1 candidates (scored above zero) when there are two or more; the context is that list.
RIVAL_H1 = (
    Rule("a sentence beside a shorter h1", lambda c, h1s: c.source == "h1" and _words(c.text) >= SENTENCE_WORDS
         and any(_words(o.text) < SENTENCE_WORDS and not opens_a_section(o.element, o.text) for o in h1s
                 if o is not c), -1.5,
         "a sentence nothing else repeats (a hero's slogan) is not the vacancy's name beside a short h1",
         ", a sentence"),
    Rule("a section among h1s", lambda c, h1s: c.source.split()[0] == "h1" and opens_a_section(c.element, c.text)
         and any(not opens_a_section(o.element, o.text) for o in h1s if o is not c), -1.5,
         "one of several h1 sections of a posting written in Markdown (\"Skills\", \"Contacts\") beside the h1 "
         "that opens the page", ", a section"),
)
