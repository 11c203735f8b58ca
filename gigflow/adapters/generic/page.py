"""The page the generic HTML adapter reads: the HTML parsed once (scripts, styles and templates dropped; header, nav,
footer and dialogs counted as site chrome), its meta tags and label rows, and the job its field finders assemble."""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml import etree

from gigflow.adapters.common import as_bytes, clean_text, is_http_url, names_this_page
from gigflow.adapters.generic.content import JobContent
from gigflow.adapters.generic.dates import JobDates
from gigflow.adapters.generic.employer import EmployerFinder
from gigflow.adapters.generic.layout import PageLayout
from gigflow.adapters.generic.lines import TitleLines
from gigflow.adapters.generic.location import LocationFinder
from gigflow.adapters.generic.marked import MarkedFields
from gigflow.adapters.generic.patterns import CHROME_LABEL_FIELDS, TITLE_SEPARATOR
from gigflow.adapters.generic.site import SiteNames
from gigflow.adapters.generic.status import JobStatus
from gigflow.adapters.generic.title import TitleFinder
from gigflow.adapters.generic.title_rules import Candidate
from gigflow.adapters.job_facts import employment_types, only_employment_type
from gigflow.adapters.labels import labelled_values
from gigflow.adapters.text_patterns import normalise
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionContext
from gigflow.documents.html import decode_html, parse_html

MAX_HTML_BYTES = 10_000_000


def read_page(content: bytes | str, url: str, context: ExtractionContext | None = None):
    """(Page, warnings), or (None, warnings) when the HTML cannot be read."""
    data = as_bytes(content)
    warnings = []
    if len(data) > MAX_HTML_BYTES:
        warnings.append(f"generic-html: page of {len(data)} bytes cut to {MAX_HTML_BYTES}")
        data = data[:MAX_HTML_BYTES]
    try:
        root = parse_html(decode_html(data)[0])
    except (etree.ParserError, ValueError) as exc:
        return None, warnings + [f"generic-html: unreadable HTML ({exc})"]
    meta = _meta(root)
    etree.strip_elements(root, "script", "style", "noscript", "template", "svg", with_tail=False)
    for line_break in root.iter("br"):
        line_break.tail = " " + (line_break.tail or "")  # "Broker<br>(Licensed)" reads "Broker (Licensed)"
    return Page(root, meta, url, context or ExtractionContext()), warnings


def _meta(root) -> dict[str, str]:
    found = {}
    for element in root.iter("meta"):
        key = (element.get("property") or element.get("name") or element.get("itemprop") or "").lower()
        value = clean_text(element.get("content"), 500)
        if key and value and key not in found:
            found[key] = value
    title = root.find(".//title")
    if title is not None and clean_text(title.text_content(), 500):
        found["<title>"] = clean_text(title.text_content(), 500)
    return found


class Page(PageLayout, SiteNames, MarkedFields, TitleLines, TitleFinder, EmployerFinder, LocationFinder, JobDates,
           JobStatus, JobContent):
    """One HTML page read for a vacancy's fields: its regions decided once, each field by its own finder (the
    mixins, one module per concern), the job assembled from them."""

    def __init__(self, root, meta: dict[str, str], url: str, context: ExtractionContext):
        self.root, self.meta, self.url, self.context = root, meta, url, context
        self.tree = root.getroottree()
        # Links resolve against <base href> when the page names one (as browsers and the Markdown do).
        base = next((b.get("href").strip() for b in root.iter("base") if (b.get("href") or "").strip()), None)
        try:
            joined = urljoin(url, base) if base else url
        except ValueError:  # a malformed <base href> (``http://[x``) is ignored, as browsers do
            joined = url
        self.base = joined if is_http_url(joined) else url
        # Whether each element sits in boilerplate, decided once top-down (parents come before children).
        self._chrome: dict = {}
        self._frame: dict = {}  # inside the site's frame proper (see _in_site_frame), decided the same way
        for element in root.iter():
            if isinstance(element.tag, str):
                parent = element.getparent()
                self._chrome[element] = (parent is not None and self._chrome.get(parent, False)) or \
                    self._is_chrome(element)
                self._frame[element] = self._chrome[element] and (
                    (parent is not None and self._frame.get(parent, False)) or self._is_frame(element))
        self.content = [e for e, chrome in self._chrome.items() if not chrome]
        # The vacancy's facts: the content less the cards of other jobs (a "more jobs" list beside the posting
        # carries their places, dates and companies, not this job's).
        cards = self._other_job_cards()
        in_card: dict = {}
        for element in self._chrome:
            parent = element.getparent()
            in_card[element] = element in cards or (parent is not None and in_card.get(parent, False))
        self._in_card = in_card
        self.facts = [e for e in self.content if not in_card[e]]
        self.labels = labelled_values(self.facts)
        # Label rows read wherever they sit: a "Location:" row inside a nav- or header-classed block is still the
        # vacancy's (fields the content left unlabelled only; never the title, never a footer's or a dialog's).
        for field, found in labelled_values([e for e, chrome in self._chrome.items()
                                             if chrome and not in_card[e] and not self._in_site_frame(e)
                                             and not _in_footer_block(e)]).items():
            if field not in self.labels and field in CHROME_LABEL_FIELDS:
                self.labels[field] = found
        # "Position: Full-time/ Permanent" labels the kind of position, not its title.
        titles = [found for found in self.labels.get("title", []) if not only_employment_type(found.value)]
        if "title" in self.labels and not titles:
            del self.labels["title"]
        elif titles:
            self.labels["title"] = titles
        self.labelled = {field: (found[0].value, self._label_evidence(found[0]))
                         for field, found in self.labels.items()}
        self.doc_titles = [t for t in (meta.get("<title>"), meta.get("og:title"), meta.get("twitter:title")) if t]
        self._title_parts = [[p.strip() for p in TITLE_SEPARATOR.split(t) if p.strip()] for t in self.doc_titles]
        self.rejected_titles: list[Candidate] = []
        self._title: tuple | None = None
        self.title_as_written: str = ""  # the title as its heading writes it, "at <employer>" included

    def path(self, element) -> str:
        return self.tree.getpath(element)[:200]

    def _label_evidence(self, found, confidence: float = 0.65) -> Evidence:
        return Evidence(method="label", snippet_or_path=f"{self.path(found.element)} label {found.label[:40]!r}",
                        confidence=confidence)

    # -- the job --------------------------------------------------------------------------------------------
    def job(self) -> ExtractedJob | None:
        title = self.title()
        if title is None:
            return None
        job = ExtractedJob(title=title[0], url=self.canonical_url())
        job.evidence["title"] = title[1]
        job.evidence["url"] = Evidence(method="meta", snippet_or_path="canonical link, og:url or page URL",
                                       confidence=0.8)
        for name, finder in (("employer", self.employer), ("location", self.location),
                             ("employment_type", lambda: self.labelled.get("employment_type")),
                             ("description", self.description), ("apply_url", self.apply_url),
                             ("date_posted", self.date_posted), ("valid_through", self.valid_through),
                             ("closed_notice", self.closed_notice)):
            found = finder()
            if found:
                setattr(job, name, found[0])
                job.evidence[name] = found[1]
        salary = self.salary()
        if salary:
            job.salary, job.evidence["salary"] = salary
        rows = self.labels.get("employment_type", [])
        kinds = employment_types(*(row.value for row in rows))
        if kinds:
            # "Contract type: Permanent" and "Hours: Part-time": contract and working pattern, one vocabulary.
            job.employment_types = kinds
            job.evidence["employment_types"] = Evidence(
                method="label", snippet_or_path="; ".join(f"{row.label[:30]}: {row.value[:60]}" for row in rows)[:500],
                confidence=0.65)
        meta = self._meta_line()
        if not kinds and meta and getattr(self, "_meta_line_types", None):
            job.employment_types = employment_types(*self._meta_line_types)
            job.employment_type = job.employment_type or self._meta_line_types[0]
            job.evidence["employment_types"] = Evidence(
                method="text-pattern", snippet_or_path=f"{self.path(meta[3])} beside the title: "
                f"{' · '.join(self._meta_line_types)[:100]}", confidence=0.5)
        if not job.employment_types and job.title:
            beside = self._type_line_under_a_title_heading(job.title)
            if beside:
                job.employment_types = employment_types(beside[0])
                job.employment_type = job.employment_type or beside[0]
                job.evidence["employment_types"] = Evidence(
                    method="text-pattern", snippet_or_path=f"{self.path(beside[1])} under a heading naming the title",
                    confidence=0.5)
        if job.location:
            job.locations = [job.location]
            where = job.evidence.get("location")
            # "Fahrkartenkontrolleur (Bremen)": the place the title carries in brackets is the location, not title.
            suffix = f"({job.location})"
            if where and where.snippet_or_path.startswith("title heading (") and job.title.endswith(suffix) \
                    and len(job.title) > len(suffix) + 3:
                job.title = job.title[:-len(suffix)].rstrip(" -–,")
        return job

    def _type_line_under_a_title_heading(self, title: str):
        """("Internship", its element): a line saying nothing but employment types right after a heading that
        repeats the job's title, wherever it stands (a page header's hero: the title and "Internship" below it)."""
        wanted = normalise(title)
        for heading in self.root.iter("h1", "h2", "h3"):
            if normalise(" ".join(heading.itertext())) != wanted or self._in_card.get(heading):
                continue
            line = heading.getnext()
            while line is not None and not isinstance(line.tag, str):
                line = line.getnext()
            text = " ".join(" ".join(line.itertext()).split()) if line is not None else ""
            if text and len(text) <= 60 and only_employment_type(text):
                return text, line
        return None

    def canonical_url(self) -> str | None:
        for link in self.root.iter("link"):
            if "canonical" in (link.get("rel") or "").lower():
                try:
                    href = urljoin(self.base, (link.get("href") or "").strip())
                except ValueError:  # "http://[bad": a hostile page's, no address
                    continue
                if is_http_url(href) and names_this_page(href, self.url):
                    return href
        og = self.meta.get("og:url")
        if og and is_http_url(og) and names_this_page(og, self.url):
            return og
        return self.url if is_http_url(self.url) else None


_FOOTER_TOKEN = re.compile(r"(^|[-_ ])footer($|[-_ ])", re.I)


def _in_footer_block(element) -> bool:
    """In a block classed or named as the site's footer (``<div id="footer">``): its column headings ("Company")
    over their links ("Careers", "Press") are a menu, not label rows, as in a ``<footer>``."""
    return any(_FOOTER_TOKEN.search(f"{node.get('class') or ''} {node.get('id') or ''}")
               for node in (element, *element.iterancestors()) if node.tag not in ("body", "html"))
