"""Generic HTML fallback: fields from generic evidence, never from one site's patterns.

Reads the raw HTML (scripts, styles and templates dropped; header, nav, footer, dialogs count as site chrome).
- title: candidates (headings of any level, title-like classes, a labelled title, prominent elements) scored by
  agreement with `<title>`/`og:title` and the labels; site names, section headings and listing items lose;
- employer: labels, microdata, class names, "at/bij/bei/chez X", the `<title>` part beside the job title, the line
  beside the title heading, `og:site_name`, logo alt text, the copyright line, then the source's configured company;
- location: labels, microdata, address markup, class names, the line beside the title heading and `<title>` parts
  when the gazetteer knows them as places;
- dates: labels, `<time>`, meta and "posted ..." phrases, read by `dates.normalise_date` against the fetch time.
A page with no title candidate yields no job, and the warning names the best candidates it rejected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin

from lxml import etree

from gigflow.adapters.ats.recognise import posting_of
from gigflow.adapters.common import as_bytes, clean_text, host_of, is_http_url
from gigflow.adapters.dates import find_date, normalise_date
from gigflow.adapters.gazetteer import place_parts, place_score
from gigflow.adapters.job_facts import REMOTE, employment_types
from gigflow.adapters.labels import labelled_values
from gigflow.adapters.text_patterns import SALARY_HINT, SECTION_HEADINGS, label_field, normalise, parse_salary
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionContext, ExtractionResult, Salary
from gigflow.documents.html import decode_html, parse_html

BASE_CONFIDENCE = 0.45
MAX_CONFIDENCE = 0.75
MAX_FIELD = 200
MAX_HTML_BYTES = 10_000_000
MIN_TITLE_SCORE = 1.0
LABELLED_TITLE_SCORE = 1.8  # a "Job title:" value alone: above an unlabelled h4, below a backed heading
MAX_CANDIDATES = 2_000  # title candidates scored per page: bounded work on a hostile page
LISTING_MIN_ITEMS = 5  # alike linked items that make a page a listing of other pages
BARE_SOURCES = frozenset(("h2", "h3", "h4", "h5", "h6", "<title> part"))  # title evidence too weak on a listing

# Boilerplate containers: fields found inside them belong to the site, not the vacancy.
CHROME_TAGS = {"header", "nav", "footer", "dialog", "aside", "form"}
PAGE_TAGS = ("html", "body")
BLOCK_TAGS = ("div", "p", "ul", "ol", "table", "section", "article")
MAX_WRAPPERS = 4
BUTTON_CLASS = re.compile(r"(?:^|[\s_-])(?:btn|button|cta)(?:$|[\s_-])", re.I)
SHORT_CODE_PAIR = re.compile(r"\b([A-Za-z]{2,3})/([A-Za-z]{2,3})\b")  # "AL/ML", "UX/UI": one abbreviation
SENTENCE_WORDS = 9  # an h1 this long beside a shorter h1 reads as a sentence (a slogan), not a job's name
SEPARATOR_ONLY = re.compile(r"^[\s·•|,/–—-]*$")
# Class words of one item of a list (cards of other jobs, search results, a CMS's post loop).
CARD_CLASS = re.compile(r"(^|[-_ ])(card|item|post|job|result|listing|teaser|tile|entry)s?($|[-_ ])", re.I)  # blocks a page builder wraps around one heading or line
CAMEL_CASE = re.compile(r"([a-z])([A-Z])")
FRAME_TOKENS = re.compile(r"cookie|modal|popup|dialog|login|sign-?in", re.I)
# Fields a label row may give from inside a nav- or header-classed block (never the title).
CHROME_LABEL_FIELDS = frozenset(("location", "salary", "employment_type", "valid_through", "date_posted", "employer",
                                 "apply_url"))
CHROME_TOKENS = re.compile(r"(^|[-_ ])(header|gnb|lnb|nav|navbar|menu|footer|modal|popup|layer|dialog|cookie|"
                           r"breadcrumbs?|sidebar|related|similar|recommend\w*|sign-in|signin|login|toast)($|[-_ ])",
                           re.I)
TITLE_CLASS = re.compile(r"(^|[-_ ])(job|posting|vacancy|vacature|position|detail|topcard|top-card|hero|head)"
                         r"[-_]{0,2}(title|name|ttl)($|[-_ ])|^title$", re.I)
EMPLOYER_ATTR = re.compile(r"(^|[-_ ])(company|employer|advertiser|hiring-?organi[sz]ation|org|corp|werkgever)"
                           r"([-_ ]{1,2}(name|info|link|title))?($|[-_ ])", re.I)
LOCATION_ATTR = re.compile(r"(^|[-_ ])(job[-_]?)?(location|locations|joblocation|workplace|standort|locatie)"
                           r"($|[-_ ])", re.I)
ADDRESS_ATTR = re.compile(r"(^|[-_ ])(adr|locality|address|addresslocality|city)($|[-_ ])", re.I)
ATTR_EXCLUDED = re.compile(r"logo|review|icon|site|employers|search|input|typeahead|filter|list", re.I)
APPLY_WORDS = re.compile(r"\b(apply|solliciteer|solliciteren|bewerben|bewerbung|postuler|reagovať|reageer|candidatar|"
                         r"candidatura|candidatarse|aplicar|postular|inscrever|ansök|ansøg|søg|hae|aplikuj|"
                         r"odpovědět|přihlásit|откликнуться|отклик)\b|応募|지원하기|입사지원", re.I)
# A heading that names a form, dialog or widget of the page, never the vacancy ("Bewerbungsformular", "Apply for this
# job" over a form, "Contact form", "Newsletter", "Share this job"): its own words, or a form right under it.
WIDGET_HEADING = re.compile(r"(formular|formulier|formulaire|formulario|eingegangen)|\b(form|newsletter|cookies?|login|"
                            r"log in|sign in|anmelden|registrieren|register|share|teilen|partager|delen|subscribe|"
                            r"job alerts?|jobalert|received|thank you|vielen dank|bedankt|merci)\b", re.I)
WIDGET_CLASS = re.compile(r"(^|[-_ ])(form|modal|popup|dialog|widget|cookie|newsletter|share|toast|banner|"
                          r"overlay)s?($|[-_ ])", re.I)
# Words that make a line name an organisation ("Oakfield Primary Academy", "Acme GmbH", "St Mary's Hospital"); not
# "group" or "team", which name departments as often as employers.
ORG_WORDS = re.compile(r"\b(school|academy|college|university|universität|hochschule|schule|gymnasium|école|"
                       r"lycée|collège|school|hospital|klinik|clinic|trust|council|ministry|agency|foundation|"
                       r"stiftung|institute|institut|gmbh|ug|ltd|limited|llc|inc|plc|oy|bv|b\.v\.|nv|"
                       r"sas|sarl|srl|s\.a\.|s\.r\.o|corp|corporation)\b\.?", re.I)
PLACE_MARKERS = ("📍",)
HEADINGS = {"h1": 3.0, "h2": 2.0, "h3": 1.6, "h4": 1.3, "h5": 1.2, "h6": 1.1}
PROMINENT = {"td", "span", "div", "b", "strong", "p", "font", "li", "a", "dd", "em", "big", "center"}
# "Heidi hiring Senior Engineer in Melbourne | LinkedIn", "Werken bij GRIP", "Jobs at Acme", "Careers at Acme".
HIRING_TITLE = re.compile(r"^(?P<employer>.+?) hiring (?P<title>.+?) in (?P<location>.+?)(\s[|–-]\s.*)?$")
JOB_IN_TITLE = re.compile(r"^(?P<title>.+?) Job in (?P<location>.+?)(\s[|–-]\s.*)?$")
CAREERS_AT = re.compile(r"^(werken bij|careers at|jobs at|work at|working at|karriere bei|jobs bei|"
                        r"travailler chez|vacatures bij)\s+(?P<employer>.+)$", re.I)
# "Welder at Acme", "Lasser bij Acme", "Schweißer bei Acme", "Soudeur chez Acme" (the title on the left).
AT_EMPLOYER = re.compile(r"^(?P<title>.{3,120}?)\s+(?:at|@|bij|bei|chez)\s+(?P<employer>[^|–—\-:]{2,80}?)"
                         r"(?:\s+(?:in|à|te|in der)\s+(?P<location>.+))?$", re.I)
# A heading that talks to the reader ("Join us!", "Find your calling", "Waarom werken bij ons?") is a site's
# slogan, never a vacancy's title (en, nl, de, fr, sv pronouns).
SLOGAN_PRONOUNS = frozenset(("we", "us", "our", "you", "your", "wij", "ons", "onze", "jij", "jouw", "uw", "wir", "uns",
                             "unser", "unsere", "dich", "dein", "deine", "nous", "notre", "nos", "vous", "votre",
                             "vos", "vi", "oss", "vår", "våra"))
# "About Acme", "Über flaconi", "Over ons", "À propos de nous": a section about the employer
# ("Over the Road Driver" is a title, so Dutch and Swedish count only with their "us").
ABOUT_HEADING = re.compile(r"^(about|über|à propos( de)?)\s+\S|^(over ons|om oss)\b", re.I)
INLINE_LABEL = re.compile(r"^([^:：]{1,40})[:：]\s*\S")
TITLE_SEPARATOR = re.compile(r"\s+[|–—-]\s+|\s*｜\s*|\s+::\s+")
_WORDS = re.compile(r"\W+")
# Words that make a heading name a list of vacancies ("Open positions at X", "1,000+ Python Jobs in Y",
# "Search results"), never one vacancy (en, nl, de, fr, sv).
LISTING_WORDS = re.compile(r"\b(jobs|vacancies|positions|openings|opportunities|roles|job listings|search results|"
                           r"vacatures|banen|stellen|stellenangebote|jobangebote|suchergebnisse|emplois|offres|"
                           r"postes|résultats|lediga jobb|lediga tjänster|empleos|ofertas|vacantes|trabajos|"
                           r"nabídky|pracovní místa|ponuky|вакансии|työpaikat|oferty pracy|offerte)\b", re.I)
COPYRIGHT = re.compile(r"(?:(?:©|&copy;|\(c\)|copyright)\s*)+(?:\d{4}(?:\s*[-–]\s*\d{4})?)?[\s,–—-]*(?:by\s+)?"
                       r"(?P<name>[^\d|.•·,][^|•·]{1,60}?)(?:[.,]?\s*(?:all rights reserved|alle rechten|"
                       r"alle rechte|tous droits)|\s*[|•·]|$)", re.I)
# A location label's value that names a way of working, not a place (en, de, nl, fr, es, cs/sk, pl, ru).
WORK_MODE_ONLY = re.compile(r"^\s*(in[- ]person|on[- ]?site|in (?:the )?office|office[- ]based|vor ort|op locatie|"
                            r"sur site|presencial|en (?:la )?oficina|na pracovišti|v kanceláři|stacjonarnie|"
                            r"в офисе|office|офис|büro|kancelář|kancelária|oficina|biuro)\s*\.?$", re.I)
# "X — a technology company", "X is a software company", "X es una empresa", "X ist ein Unternehmen" (en, ru,
# de, es, fr, nl, cs, sk, pl): a description that names the organisation it is about, first.
DESCRIBED_ORGANISATION = re.compile(r"^(?P<name>[^\s—–:;,.!?][^—–:;,.!?]{1,50}?)\s*(?:\s[—–-]\s*(?:это\s+)?|\s+(?:is|ist|es|est|"
                                    r"is een|je|jest)\s+(?:an?|ein\w*|una?|une?|een)?\s*)[^.]{0,60}?\b(?:company|firm|"
                                    r"organi[sz]ation|startup|agency|компания|организация|unternehmen|firma|empresa|"
                                    r"entreprise|société|bedrijf|organisatie|společnost|spoločnosť|spółka)\b", re.I)
BREADCRUMB = re.compile(r"breadcrumb|BreadcrumbList|drobečk|omrvink|miette|migas|хлебн", re.I)
SECTION_OF_SITE = re.compile(r"^(?P<name>\S.{1,58}?)\s+(?:job descriptions?|job details|job posting|careers?|jobs|"
                             r"karriere|stellenangebote|vacatures|werken bij|carrières|empleo|empleos|kariéra|"
                             r"kariera|вакансии|työpaikat)$", re.I)
LEGAL_SUFFIX = re.compile(r"[\s,]+(inc|llc|ltd|gmbh|bv|b\.v|nv|n\.v|sa|ag|plc|corp|co)\.?$", re.I)
POSTED_PHRASE = re.compile(r"\b(?:posted|published|added|geplaatst|gepubliceerd|veröffentlicht|eingestellt|"
                           r"publié|publiée|mis en ligne|publicado|publicada|pubblicato|julkaistu|publicerad|"
                           r"udgivet|opublikowano|dodano|zveřejněno|přidáno|zverejnené|pridané|опубликовано|"
                           r"размещено)\b(?:\s+(?:on|op|am|le))?\s*:?\s*(?P<date>[^\n|•·]{3,60})",
                           re.I)
CLOSING_PHRASE = re.compile(r"\b(?:apply (?:by|before)|applications? close[sd]?(?: on)?|closing date(?: is)?|"
                            r"closes(?: on)?|deadline(?: is)?|bewerb\w* (?:sie sich |dich )?bis(?: zum)?|"
                            r"bewerbungsschluss(?: ist)?|reageer (?:voor|vóór|uiterlijk)|solliciteer (?:voor|vóór)|"
                            r"date limite(?: de candidature)?|postuler avant le|haku päättyy|plazo(?: de inscripción)? "
                            r"hasta)\b\s*:?\s*(?P<date>[^\n|•·]{3,60})", re.I)
DATE_META = ("article:published_time", "datepublished", "date", "dc.date", "dc.date.issued", "dcterms.created",
             "publish-date", "pubdate", "og:published_time")


@dataclass
class Candidate:
    text: str
    score: float
    source: str
    element: object = None


class GenericHtmlAdapter:
    parser_key = "generic-html"
    parser_version = "2.0.0"
    uses_context = True

    def supports(self, url: str, content: bytes | str) -> bool:
        head = as_bytes(content)[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        return not head.startswith((b"{", b"[", b"<?xml", b"<rss", b"<feed"))

    def extract(self, content: bytes | str, *, url: str, context: ExtractionContext | None = None) -> ExtractionResult:
        page, warnings = read_page(content, url, context)
        if page is None:
            return self._result([], warnings)
        job = page.job()
        if job is None:
            best = "; ".join(f"{c.text[:60]!r} ({c.source}, {c.score:.1f})" for c in page.rejected_titles[:3])
            return self._result([], warnings + [f"generic-html: no recognisable title (no title candidate"
                                                f"{'; best rejected: ' + best if best else ''})"])
        if not job.is_storable():
            return self._result([], warnings + ["generic-html: no http(s) URL"])
        missing = [f for f in ("employer", "location", "description") if not getattr(job, f)]
        confidence = round(min(MAX_CONFIDENCE, MAX_CONFIDENCE - 0.1 * len(missing)), 3)
        confidence = max(BASE_CONFIDENCE, confidence)
        if missing:
            warnings.append(f"generic-html: missing {', '.join(missing)}")
        return self._result([job], warnings, confidence)

    def _result(self, jobs, warnings, confidence=0.0) -> ExtractionResult:
        return ExtractionResult(jobs=jobs, parser_key=self.parser_key, parser_version=self.parser_version,
                                confidence=confidence if jobs else 0.0, warnings=warnings, kind="detail")


def read_page(content: bytes | str, url: str, context: ExtractionContext | None = None):
    """(_Page, warnings), or (None, warnings) when the HTML cannot be read."""
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
    return _Page(root, meta, url, context or ExtractionContext()), warnings


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


def _own_text(element) -> str:
    return " ".join(("".join(t for t in element.itertext() if t)).split())


def _joined(element) -> str:
    """Text of separate child elements joined with commas: <span>United States</span><span>Canada</span>."""
    pieces = [" ".join(p.split()) for p in element.itertext() if p.strip(" ()\n\t,")]
    text = ""
    for piece in pieces:
        text = piece if not text else f"{text} {piece}" if piece.startswith("(") or text.endswith("(") else f"{text}, {piece}"
    if text.count("(") != text.count(")"):
        text = text.replace("(", "").replace(")", "")
    return text.strip(" ,")


def _class_shape(node) -> str:
    """The class without tokens that number the item ("post post-17556"): alike cards of a CMS loop."""
    return " ".join(t for t in (node.get("class") or "").split() if not any(ch.isdigit() for ch in t))


def _squash(text: str) -> str:
    return re.sub(r"[\W_]+", "", normalise(text))


def _is_slogan(text: str) -> bool:
    """A sentence to the reader: it ends in ! or ?, or it says we/us/you ("US" in capitals is the country) before
    any dash ("Welder — Safety Starts With Your Hands" is a title with a tagline)."""
    if re.search(r"[!?]\s*$", text):
        return True
    head = TITLE_SEPARATOR.split(text)[0]
    # A short word in capitals inside mixed case is an abbreviation or a numeral ("Engr VI"), not a pronoun.
    return any(word.casefold() in SLOGAN_PRONOUNS and word != "US" and
               not (word.isupper() and len(word) <= 3 and not head.isupper()) for word in _WORDS.split(head))


def _is_control(element) -> bool:
    """A button or a link styled as one ("Apply now", "Share"): an action, never a line of facts."""
    if element.tag in ("button", "input", "select") or element.get("role") == "button":
        return True
    if element.tag != "a":
        return False
    return bool(BUTTON_CLASS.search(element.get("class") or "")) or \
        (bool(APPLY_WORDS.search(_own_text(element))) and len(_own_text(element).split()) <= 4)


def _labels_another_field(text: str) -> bool:
    """Whether a text is "Label: value" for a field other than the title."""
    inline = INLINE_LABEL.match(text)
    return bool(inline) and label_field(inline.group(1)) not in (None, "title")


def _is_section_heading(text: str) -> bool:
    key = normalise(text).strip(" :：-–|•*»«").strip()
    return key in SECTION_HEADINGS or label_field(key) is not None


class _Page:
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
        self.facts = [e for e in self.content if not in_card[e]]
        self.labels = labelled_values(self.facts)
        # Label rows read wherever they sit: a "Location:" row inside a nav- or header-classed block is still the
        # vacancy's (fields the content left unlabelled only; never the title, never a footer's or a dialog's).
        for field, found in labelled_values([e for e, chrome in self._chrome.items()
                                             if chrome and not in_card[e] and not self._in_site_frame(e)]).items():
            if field not in self.labels and field in CHROME_LABEL_FIELDS:
                self.labels[field] = found
        self.labelled = {field: (found[0].value, self._label_evidence(found[0]))
                         for field, found in self.labels.items()}
        self.doc_titles = [t for t in (meta.get("<title>"), meta.get("og:title"), meta.get("twitter:title")) if t]
        self._title_parts = [[p.strip() for p in TITLE_SEPARATOR.split(t) if p.strip()] for t in self.doc_titles]
        self.rejected_titles: list[Candidate] = []
        self._title: tuple | None = None

    # -- where things are -------------------------------------------------------------------------------
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

    def _is_widget_heading(self, element, text: str, backed: bool = False) -> bool:
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
                text = _own_text(anchor)
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
            text = clean_text(_own_text(anchor), 120) or ""
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
            text = normalise(_own_text(h1))
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
            shape = _class_shape(node)
            for sibling in parent:
                if sibling.get("class") not in shapes:
                    shapes[sibling.get("class")] = _class_shape(sibling)
            cache[key] = sum(1 for s in parent if s.tag == node.tag and shapes[s.get("class")] == shape)
        return cache[key]

    def owner_names(self) -> set[str]:
        """Squashed names the page gives its owner: og:site_name, application-name, logo alt texts and the
        copyright holder (once per page)."""
        if not hasattr(self, "_owner_names"):
            names = [self._og_site_name(), self.meta.get("application-name")]
            for image in self.root.iter("img"):
                if "logo" in f"{image.get('class') or ''} {image.get('id') or ''} {image.get('src') or ''}".lower():
                    names.append(re.sub(r"\s*\blogo\b\s*", " ", image.get("alt") or "", flags=re.I))
            for element in list(self._chrome)[-400:]:
                text = element.text or ""
                if "©" in text or "copyright" in text.lower() or "(c)" in text.lower():
                    match = COPYRIGHT.search(clean_text(text, 200) or "")
                    if match:
                        names.append(match.group("name"))
            self._owner_names = {_squash(LEGAL_SUFFIX.sub("", n.strip(" .,-|"))) for n in names if n} - {""}
        return self._owner_names

    def _is_owner_name(self, text: str) -> bool:
        return _squash(LEGAL_SUFFIX.sub("", text)) in self.owner_names()

    def _in_chrome(self, element) -> bool:
        return self._chrome.get(element, False) if element is not None else False

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
                             ("date_posted", self.date_posted), ("valid_through", self.valid_through)):
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
        if job.location:
            job.locations = [job.location]
            where = job.evidence.get("location")
            # "Fahrkartenkontrolleur (Bremen)": the place the title carries in brackets is the location, not title.
            suffix = f"({job.location})"
            if where and where.snippet_or_path.startswith("title heading (") and job.title.endswith(suffix) \
                    and len(job.title) > len(suffix) + 3:
                job.title = job.title[:-len(suffix)].rstrip(" -–,")
        return job

    def canonical_url(self) -> str | None:
        for link in self.root.iter("link"):
            if "canonical" in (link.get("rel") or "").lower():
                href = urljoin(self.base, (link.get("href") or "").strip())
                if is_http_url(href):
                    return href
        og = self.meta.get("og:url")
        if og and is_http_url(og):
            return og
        return self.url if is_http_url(self.url) else None

    # -- title ------------------------------------------------------------------------------------------------
    def site_names(self) -> list[str]:
        """Squashed names of the site itself: og:site_name, application-name and the host's labels."""
        if hasattr(self, "_site_names"):
            return self._site_names
        names = [_squash(name) for name in (self._og_site_name(), self.meta.get("application-name")) if name]
        host = host_of(self.url)
        labels = [label for label in host.split(".") if label not in ("www", "com", "org", "net", "co", "jobs")]
        names.extend(label.replace("-", "") for label in labels if len(label) > 2)
        self._site_names = [n for n in names if n]
        return self._site_names

    def _og_site_name(self) -> str | None:
        """og:site_name; when it is the page's own document title copied ("Welder in Geel | Acme Jobs": a CMS that
        fills every page's site name with its title), only the title's last part names the site ("Acme Jobs")."""
        name = (self.meta.get("og:site_name") or "").strip()
        parts = [p.strip() for p in TITLE_SEPARATOR.split(name) if p.strip()]
        if len(parts) >= 2 and any(normalise(name) == normalise(t) for t in (
                self.meta.get("<title>"), self.meta.get("og:title"), self.meta.get("twitter:title")) if t):
            return parts[-1]
        return name or None

    def _is_site_name(self, text: str) -> bool:
        """"JobTarget, LLC" on jobtargetjobfinder.com; not "Vercel General Application" on vercel.com."""
        squashed = _squash(LEGAL_SUFFIX.sub("", text))
        short = len(LEGAL_SUFFIX.sub("", text).split()) <= 2
        return bool(squashed) and any(squashed == name or (len(squashed) > 3 and squashed in name)
                                      or (short and len(name) > 3 and name in squashed)
                                      for name in self.site_names())

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
                spaced = f" {_WORDS.sub(' ', key).strip()} "
                if any(spaced in f" {_WORDS.sub(' ', part).strip()} " for part in parts if key in part):
                    best = 2.0
            if not best:
                # "Bewerbung als Quereinsteiger (m/w/d) Fahrkartenkontrolleur (Bremen)" against the <title> part
                # "Bewerbung Quereinsteiger (m/w/d) Fahrkartenkontrolleur Bremen": nearly the same words.
                mine = {w for w in _WORDS.split(key) if len(w) > 1}
                for part in parts:
                    theirs = {w for w in _WORDS.split(part) if len(w) > 1}
                    shared = len(mine & theirs)
                    if len(theirs) >= 3 and shared >= 0.8 * len(theirs) and shared >= 0.6 * len(mine):
                        best = 3.0
                        break
        self._agreements[key] = best
        return best

    def _site_section_texts(self) -> set[str]:
        """Short texts of navigation, header and footer (breadcrumbs excluded: their last item is often the job)."""
        texts, crumbs = set(), set()
        for element, chrome in self._chrome.items():
            parent = element.getparent()
            if (parent is not None and parent in crumbs) or \
                    "breadcrumb" in f"{element.get('class') or ''} {element.get('id') or ''}".lower():
                crumbs.add(element)
                continue
            if chrome and element.text is not None:
                text = normalise(element.text)
                if 2 < len(text) < 60:
                    texts.add(text)
        return texts

    def title_candidates(self) -> list[Candidate]:
        labelled_titles = {normalise(v.value) for v in self.labels.get("title", [])}
        other_fields = {normalise(v.value) for field in ("employer", "location") for v in self.labels.get(field, [])}
        other_fields.update(normalise(found[0]) for found in (self._by_attribute(EMPLOYER_ATTR),
                                                              self._by_attribute(LOCATION_ATTR, joined=True)) if found)
        signatures: dict[tuple, int] = {}
        for element in self._chrome:
            key = (element.tag, element.get("class"))
            signatures[key] = signatures.get(key, 0) + 1
        found: dict[str, Candidate] = {}
        titles_lower = " | ".join(self.doc_titles).lower()
        section_texts = self._site_section_texts()
        scored = 0
        for element, chrome in self._chrome.items():
            tag = element.tag
            heading = HEADINGS.get(tag)
            named = element.get("class") or element.get("id")
            classed = bool(named) and tag not in ("a", "img", "button") and \
                bool(TITLE_CLASS.search(element.get("class") or "") or TITLE_CLASS.search(element.get("id") or ""))
            if heading is None and not classed:
                if tag not in PROMINENT:
                    continue
                own = (element.text or "").strip()
                # Prominent elements count by their own text, and only when the title or a label backs it.
                if len(own) < 3 or not (" ".join(own.split()).lower() in titles_lower
                                        or normalise(own) in labelled_titles):
                    continue
                text = clean_text(own, 300)
            else:
                text = clean_text(_own_text(element), 300)
            if not text or not 3 <= len(text) <= 150 or not re.search(r"[^\W\d_]", text):
                continue
            agreement = self._agreement(text)
            labelled = normalise(text) in labelled_titles
            if heading is None and not classed and not (agreement or labelled):
                continue
            if any(a.tag in ("button", "label", "select", "option") for a in element.iterancestors()):
                continue  # a control's caption is never the vacancy's title
            if self._hidden(element):
                continue  # a closed dialog's or a hidden widget's heading
            if text[:1] in "\"“„«'‘" and text.rstrip()[-1:] in "\"”“»'’":
                continue  # a quotation (a testimonial's heading), never a vacancy's title
            if chrome and tag == "h1" and self._weak_chrome(element):
                chrome = False  # a title block classed "section-header" is the page's own, not the site's header
            if self._in_footer(element):
                continue  # a footer repeats the site's name, never the vacancy
            if not labelled and (_is_slogan(text) or ABOUT_HEADING.match(text) or
                                 (APPLY_WORDS.search(text) and len(text.split()) <= 3)):
                continue
            named = f"{element.get('class') or ''} {element.get('id') or ''}"
            if not labelled and (normalise(text) in other_fields or EMPLOYER_ATTR.search(named)
                                 or LOCATION_ATTR.search(named)):
                continue  # the employer's or the place's element, however prominent
            scored += 1
            if scored > MAX_CANDIDATES:
                break
            score = heading or (2.2 if classed else 0.5)
            source = tag if heading else ("class" if classed else f"{tag} text")
            if agreement:
                # A heading backed by the title beats a plain text backed by it: prominence is half the evidence.
                score += agreement if heading or classed else min(agreement, 2.5)
                source += " = <title>"
            if not chrome and not agreement and normalise(text) in section_texts:
                score -= 4.0  # the name of a site section, repeated in its navigation
            if labelled:
                score += 3.0
                source += " = label"
            if chrome:
                score -= 3.0
            if self._is_site_name(text) or self._is_owner_name(text):
                score -= 6.0  # the site's or the employer's own name (a logo h1, a careers page's h1)
            if _is_section_heading(text):
                score -= 5.0
            if (heading or classed) and not labelled and self._is_widget_heading(element, text, bool(agreement)):
                score -= 4.0  # "Bewerbungsformular", a dialog's or a share widget's heading
            if text.endswith((":", "：")):
                score -= 3.0
            if _labels_another_field(text):
                score -= 4.0  # "Post date: 12/06", "Location: Geel": a fact with its label, not a title
            if not labelled and (LISTING_WORDS.search(text) or CAREERS_AT.match(text)):
                continue  # a listing's heading: no vacancy is called that
            links = element.findall(".//a") if tag != "a" else [element]
            around = next((a for a in element.iterancestors("a")), None)
            linked = (links and any(self._links_elsewhere(a) for a in links) and _own_text(links[0]) == text) or \
                (around is not None and self._links_elsewhere(around))
            if linked:
                score -= 2.5  # a heading that links to another page is a listing item
                if signatures.get((tag, element.get("class")), 0) >= 3:
                    score -= 2.5  # one of many alike: a list of jobs, not this one
            if self._in_card_list(element):
                score -= 3.0  # a heading inside one of many alike list items: a list of jobs, not this one
            if len(text) > 100:
                score -= 1.0
            if place_score(SHORT_CODE_PAIR.sub(r"\1\2", text)) >= 0.5:
                # A place repeated in the title ("Welder - Geel - Acme") is not the job; "AL/ML", "UX/UI" are
                # abbreviations, not two state or country codes.
                score -= 3.0
            key = normalise(text)
            if key not in found or found[key].score < score:
                found[key] = Candidate(text, score, source, element)
        h1s = [c for c in found.values() if c.source.split()[0] == "h1" and c.score > 0]
        if len(h1s) >= 2:
            # Of several h1s, a sentence that nothing else repeats (a hero's slogan, "Help us build the best
            # platform for ...") is not the vacancy's name beside a short h1.
            for candidate in h1s:
                if candidate.source == "h1" and len(_WORDS.split(candidate.text.strip())) >= SENTENCE_WORDS and \
                        any(len(_WORDS.split(o.text.strip())) < SENTENCE_WORDS for o in h1s if o is not candidate):
                    candidate.score -= 1.5
                    candidate.source += ", a sentence"
        for labelled_title in self.labels.get("title", []):
            # "Job Title: Welder" inside a paragraph: the value has no element of its own to score above.
            key = normalise(labelled_title.value)
            if key not in found and not _is_section_heading(labelled_title.value) and 3 <= len(key) <= 150 \
                    and not self._in_chrome(labelled_title.element):
                found[key] = Candidate(labelled_title.value, LABELLED_TITLE_SCORE + self._agreement(key),
                                       "label", labelled_title.element)
        self._title_parts_as_candidates(found)
        for pattern in (HIRING_TITLE, JOB_IN_TITLE):
            match = pattern.match(self.meta.get("og:title", ""))
            if match:
                key = normalise(match.group("title"))
                if key not in found or found[key].score < 2.5:
                    found[key] = Candidate(match.group("title"), 2.5, "og:title pattern")
        return sorted(found.values(), key=lambda c: -c.score)

    def _title_parts_as_candidates(self, found: dict[str, Candidate]) -> None:
        """A part of the document title that a heading only begins with ("Engineer (AME) — Observer Programme" vs
        the h1 "Engineer — Flight Safety ...") is the fuller title; a part alone, with no body evidence, is the
        last resort (JavaScript shells show nothing else)."""
        headings = [c for c in found.values() if c.source.split()[0] in HEADINGS and c.score > 0
                    and "<title>" not in c.source]
        for parts in self._title_parts:
            normalised = [normalise(p) for p in parts]
            for part, key in zip(parts, normalised):
                if key in found or len(key.split()) < 2 or _is_section_heading(part) or self._is_site_name(part) \
                        or place_score(part) >= 0.5 or CAREERS_AT.match(part) or LISTING_WORDS.search(part) or \
                        any(other != key and (key in other or other in key) for other in normalised):
                    continue
                words = key.split()
                # Alone, a part counts only when the title and og:title both carry it.
                score = 1.0 if sum(key in map(normalise, other) for other in self._title_parts) >= 2 else 0.8
                source = "<title> part"
                for heading in headings:
                    shared = 0
                    for mine, theirs in zip(words, normalise(heading.text).split()):
                        if re.sub(r"\W", "", mine) != re.sub(r"\W", "", theirs):
                            break
                        shared += 1
                    if shared >= 2 and shared >= 0.5 * len(words) and heading.score + 1.0 > score:
                        score, source = heading.score + 1.0, f"<title> part ~ {heading.source.split()[0]}"
                found[key] = Candidate(part, score, source, None)

    def _described(self, candidate: Candidate) -> bool:
        """A <title> part that og:title repeats and the page's description begins with (and goes on) names this
        page's own item, even where the page also lists many others (a board's posting inside its link-heavy frame)."""
        if candidate.source != "<title> part" or candidate.score < 1.0:
            return False
        key = normalise(candidate.text)
        return any(normalise(self.meta.get(k, "")).startswith(key) and len(normalise(self.meta.get(k, ""))) >
                   len(key) + 20 for k in ("description", "og:description"))

    def _links_elsewhere(self, anchor) -> bool:
        href = (anchor.get("href") or "").strip()
        if not href or href.startswith(("#", "javascript:")):
            return False
        target = urljoin(self.base, href).split("#")[0].rstrip("/")
        return target != (self.url or "").split("#")[0].rstrip("/")

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
        method = "heading" if best.source.split()[0] in HEADINGS else "meta" if best.element is None else "css"
        where = self.path(best.element) if best.element is not None else "og:title"
        confidence = round(min(0.85, 0.55 + best.score / 20), 3)
        self._title = (best.text, Evidence(method=method, snippet_or_path=f"{where} [{best.source}]"[:500],
                                           confidence=confidence))
        self.title_element = best.element
        return self._title

    # -- employer ---------------------------------------------------------------------------------------------
    def employer(self) -> tuple[str, Evidence] | None:
        found = self._marked_field("hiringOrganization", "employer", EMPLOYER_ATTR)
        if found:
            return found
        key, match = self._meta_title_match(HIRING_TITLE)
        if match:
            return match.group("employer"), Evidence(method="meta", snippet_or_path=f"{key} 'X hiring'",
                                                     confidence=0.6)
        for key in ("<title>", "og:title"):
            for part in TITLE_SEPARATOR.split(self.meta.get(key, "")):
                match = CAREERS_AT.match(part.strip())
                if match:
                    return match.group("employer"), Evidence(method="meta", snippet_or_path=f"{key} 'careers at'",
                                                             confidence=0.55)
        # What the page says about the hiring organisation (a heading or line naming it beside the title, the title
        # itself), then the source's configured company, and only then what names the site's operator (site name,
        # logo, copyright line): on a board those name the board, not the school or firm that hires.
        for finder in (self._employer_at, self._employer_beside_title_in_doc_title, self._employer_beside_heading,
                       self._organisation_beside_title, self._employer_in_meta_line):
            found = finder()
            if found:
                return found
        if self.context.company:
            return self.context.company, Evidence(method="config", snippet_or_path="the source's configured company",
                                                  confidence=0.35)
        for finder in (self._site_name, self._logo_alt, self._copyright):
            found = finder()
            if found:
                return found
        return None

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
            segments = [s.strip() for s in re.split(r"\s*[·•|]\s*|\s+[–—]\s+", text) if s.strip()]
            if len(segments) < 2 or len(segments) > 6:
                continue
            place = next((s for s in segments if place_score(s) >= 0.67), None) or \
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

    def _employer_in_meta_line(self) -> tuple[str, Evidence] | None:
        meta = self._meta_line()
        if meta and meta[0]:
            return meta[0], Evidence(method="text-pattern", snippet_or_path=f"{self.path(meta[3])} beside the "
                                     "title, first segment", confidence=0.45)
        return None

    def _organisation_beside_title(self) -> tuple[str, Evidence] | None:
        """A short line right after the title that names an organisation ("Oakfield Primary Academy, Leeds",
        "Acme GmbH · Berlin"): its organisation part, the place after a separator dropped."""
        for text, node, leafy in self._lines_after_title(3):
            if not leafy or len(text.split()) > 12 or parse_salary(text) or normalise_date(text):
                continue
            part = re.split(r"\s*[,·•|–—]\s*|\s+-\s+", text)[0].strip()
            if ORG_WORDS.search(part) and part[:1].isupper() and len(part.split()) <= 8 and \
                    self._plausible_employer(part) and not self._is_site_name(part) \
                    and not _is_slogan(part) and not _labels_another_field(part):
                return part, Evidence(method="text-pattern", snippet_or_path=f"{self.path(node)} organisation "
                                      "beside the title", confidence=0.5)
        return None

    def _plausible_employer(self, text: str | None) -> bool:
        if text and len(text.split()) <= 2 and LISTING_WORDS.search(text):
            return False  # "Empleos", "Jobs", "Вакансии": a board's section, not an employer
        return bool(text) and 2 <= len(text) <= 100 and not _is_section_heading(text) and \
            place_score(text) < 0.5 and not re.fullmatch(r"[\d\W]+", text) and \
            not (self.title() and normalise(text) == normalise(self.title()[0]))

    def _employer_at(self) -> tuple[str, Evidence] | None:
        """"Welder at Acme" in a heading or the document title, the left side being the job title."""
        title = self.title()
        texts = [(key, self.meta.get(key, "")) for key in ("<title>", "og:title")]
        if title:
            texts.insert(0, ("title heading", title[0]))
        for key, text in texts:
            for part in [text] + TITLE_SEPARATOR.split(text):
                match = AT_EMPLOYER.match(part.strip())
                if match and self._plausible_employer(match.group("employer")) and \
                        (not title or _is_section_heading(match.group("title"))
                         or normalise(match.group("title")) in normalise(title[0])
                         or normalise(title[0]) in normalise(match.group("title"))):
                    return match.group("employer").strip(), Evidence(method="text-pattern",
                                                                     snippet_or_path=f"{key} 'at X'", confidence=0.6)
        return None

    def _employer_beside_title_in_doc_title(self) -> tuple[str, Evidence] | None:
        """"Job Search - Welder - Acme Inc. - Geel - Board": the part after the job title, when not a place or
        the site. Bars separate more strongly than dashes ("Welder — Night shift | Acme": Acme)."""
        title = self.title()
        if not title:
            return None
        key = normalise(title[0])
        for raw, name in zip(self.doc_titles, ("<title>", "og:title", "twitter:title")):
            levels = [[p.strip() for p in re.split(r"\s*[|｜]\s*", raw) if p.strip()]] if re.search("[|｜]", raw) else []
            levels.append([p.strip() for p in TITLE_SEPARATOR.split(raw) if p.strip()])
            for parts in levels:
                index = next((i for i, p in enumerate(parts) if key == normalise(p) or key in normalise(p)), None)
                if index is None or len(parts) < 2:
                    continue
                for neighbour in (index + 1, index - 1):
                    if 0 <= neighbour < len(parts):
                        text = parts[neighbour]
                        if self._plausible_employer(text) and not self._is_site_name(text) and \
                                not re.search(r"\d", text):
                            return text, Evidence(method="meta", snippet_or_path=f"{name} part beside the job title",
                                                  confidence=0.5)
                break
        return None

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
        text = clean_text(_own_text(node), MAX_FIELD)
        if not text:
            return None
        children = [c for c in node if isinstance(c.tag, str) and clean_text(_own_text(c), MAX_FIELD)]
        loose = [t for t in [node.text] + [c.tail for c in node] if not SEPARATOR_ONLY.match(t or "")]
        if node.tag not in HEADINGS and len(text) <= 200:
            # An action beside the line ("New York, United States" [Apply now]) is a control, not part of it.
            kept = [c for c in children if not _is_control(c)]
            if len(kept) == 1 and len(children) > 1 and not loose and depth < MAX_WRAPPERS:
                return self._line_of(kept[0], depth + 1)
            if len(children) == 1 and not loose and depth < MAX_WRAPPERS:
                return self._line_of(children[0], depth + 1)  # a block that only wraps one line
            # Items of one line: spans of a meta line, a tag list, or "<b>Acme</b> · Berlin <span>Remote</span>"
            # (text between the items counts when a separator marks it; else the block is a sentence).
            inline = children and not any(g.tag in BLOCK_TAGS for c in children for g in c.iter())
            if inline and (not loose or any(re.search(r"[·•|]", t) for t in loose)):
                pieces = [node.text] + [piece for c in children for piece in (_own_text(c), c.tail)]
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

    def _employer_beside_heading(self) -> tuple[str, Evidence] | None:
        for text, node, leafy in self._lines_after_title(2):
            # Only a heading line (title, then company, then place): a sentence after the title is no employer.
            if node.tag in HEADINGS and place_score(text) == 0 and len(text.split()) <= 8:
                if self._plausible_employer(text) and not self._is_site_name(text) and \
                        not parse_salary(text) and not normalise_date(text):
                    return text, Evidence(method="heading", snippet_or_path=f"{self.path(node)} beside the title",
                                          confidence=0.45)
            break
        return None

    def _site_name(self) -> tuple[str, Evidence] | None:
        """og:site_name, or the `<title>`'s other half when one half is the job title ('Analytics Engineer –
        Vercel')."""
        title = self.title()
        raw = self.meta.get("<title>", "")
        parts = [p.strip() for p in TITLE_SEPARATOR.split(raw) if p.strip()]
        if title and len(parts) == 2 and normalise(title[0]) in (normalise(parts[0]), normalise(parts[1])):
            other = parts[1] if normalise(title[0]) == normalise(parts[0]) else parts[0]
            return other, Evidence(method="meta", snippet_or_path="<title> beside the h1", confidence=0.45)
        if self._og_site_name() and self._plausible_employer(self._og_site_name()):
            return self._og_site_name(), Evidence(method="meta", snippet_or_path="og:site_name", confidence=0.4)
        for part in parts:
            # "GO-JEK Tech Job Description", "Acme Careers", "Acme Karriere": the site's owner before a section word.
            match = SECTION_OF_SITE.match(part)
            if match and self._plausible_employer(match.group("name")) and \
                    not (title and normalise(match.group("name")) in normalise(title[0])):
                return match.group("name"), Evidence(method="meta", snippet_or_path="<title> 'X careers'",
                                                     confidence=0.35)
        for key in ("description", "og:description"):
            # "СберАвтоТех — технологическая компания, ...", "Acme is a software company that ...": the site's
            # description names its owner first.
            match = DESCRIBED_ORGANISATION.match(self.meta.get(key, ""))
            if match and self._plausible_employer(match.group("name")) and len(match.group("name").split()) <= 4:
                return match.group("name").strip(), Evidence(method="meta", snippet_or_path=f"meta {key} "
                                                             "'X is a company'", confidence=0.3)
        return None

    def _logo_alt(self) -> tuple[str, Evidence] | None:
        for image in self.root.iter("img"):
            attributes = f"{image.get('class') or ''} {image.get('id') or ''} {image.get('src') or ''}".lower()
            if "logo" not in attributes:
                continue
            alt = clean_text(image.get("alt"), 100)
            alt = re.sub(r"\s*\blogo\b\s*", " ", alt or "", flags=re.I).strip(" -|")
            if alt and self._plausible_employer(alt):
                return alt, Evidence(method="css", snippet_or_path=f"{self.path(image)}@alt (logo)", confidence=0.35)
        return None

    def _copyright(self) -> tuple[str, Evidence] | None:
        for element, _ in reversed(list(self._chrome.items())[-400:]):
            text = clean_text(element.text, 200) or ""
            if "©" not in text and "copyright" not in text.lower() and "(c)" not in text.lower():
                continue
            match = COPYRIGHT.search(text)
            if match:
                name = match.group("name").strip(" .,-")
                if self._plausible_employer(name):
                    return name, Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} copyright",
                                          confidence=0.3)
        return None

    # -- location ---------------------------------------------------------------------------------------------
    def location(self) -> tuple[str, Evidence] | None:
        found = self._marked_field("jobLocation", "location", LOCATION_ATTR, joined=True)
        if found and WORK_MODE_ONLY.match(found[0]):
            # "Work location: In person": a way of working, not a place; the page's place wins, this is the last.
            return self._unmarked_location() or found
        return found or self._unmarked_location()

    def _unmarked_location(self) -> tuple[str, Evidence] | None:
        for element in self.facts:
            if element.tag == "address" or ADDRESS_ATTR.search(element.get("class") or ""):
                text = clean_text(_joined(element), MAX_FIELD)
                if text and place_score(text) > 0:
                    return text, Evidence(method="css", snippet_or_path=f"{self.path(element)} address markup",
                                          confidence=0.55)
        for element in self.facts:
            text = (element.text or "").strip()
            if text.startswith(PLACE_MARKERS):
                place = clean_text(text.lstrip("".join(PLACE_MARKERS)), MAX_FIELD)
                if place:
                    return place, Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} 📍",
                                           confidence=0.5)
        key, match = self._meta_title_match(HIRING_TITLE, JOB_IN_TITLE)
        if match:
            return match.group("location"), Evidence(method="meta", snippet_or_path=f"{key} '... in X'",
                                                     confidence=0.5)
        lines = self._lines_after_title(3)
        meta = self._meta_line()
        if meta and meta[1]:
            return meta[1], Evidence(method="gazetteer", snippet_or_path=f"{self.path(meta[3])} beside the title, "
                                     "its place", confidence=0.5)
        for text, node, leafy in lines:
            if leafy and place_score(text) >= 0.5:
                parts = [p.strip() for p in re.split(r"\s*,\s*", text) if p.strip()]
                known = [p for p in parts if place_score(p) >= 0.67]
                if known and len(known) < len(parts) and ORG_WORDS.search(parts[0]):
                    # "St Mary's Primary School, Bristol": the organisation's line; its place is the location.
                    text = ", ".join(known)
                return text, Evidence(method="gazetteer", snippet_or_path=f"{self.path(node)} beside the title",
                                      confidence=0.5)
        for text, node, leafy in lines:
            # "Remote (Europe)", "Anywhere": a remote job's place is the line itself (job_facts flags it remote).
            if leafy and REMOTE.match(text) and len(text.split()) <= 4:
                return text, Evidence(method="text-pattern", snippet_or_path=f"{self.path(node)} beside the title, "
                                      "remote", confidence=0.5)
        for text, node, leafy in lines:
            # "Tetovo, Macedonia, Macedonia" (a country the gazetteer names differently): a partly known place
            # that the document title repeats is the place too.
            if leafy and place_score(text) > 0 and self._in_doc_title(place_parts(text)[0]):
                return text, Evidence(method="gazetteer", snippet_or_path=f"{self.path(node)} beside the title, "
                                      "in <title>", confidence=0.45)
        found = self._place_in_breadcrumb()
        if found:
            return found
        for parts, name in zip(self._title_parts, ("<title>", "og:title", "twitter:title")):
            for part in parts:
                if place_score(part) >= 0.67:
                    return part, Evidence(method="gazetteer", snippet_or_path=f"{name} part", confidence=0.4)
        return self._place_in_title()

    def _place_in_breadcrumb(self) -> tuple[str, Evidence] | None:
        """"Práce › Praha › Programátor", "Jobs / Germany / Berlin / Welder": the deepest breadcrumb item that the
        gazetteer knows as a place (a board files its postings under their place)."""
        for trail in self.root.iter():
            if not isinstance(trail.tag, str) or trail.tag in PAGE_TAGS:
                continue
            named = f"{trail.get('class') or ''} {trail.get('id') or ''} {trail.get('aria-label') or ''} " \
                    f"{trail.get('itemtype') or ''}"
            if not BREADCRUMB.search(named):
                continue
            items = [clean_text(_own_text(a), MAX_FIELD) for a in trail.iter("a", "li", "span")
                     if len(a) == 0 or a.tag == "a"]
            if not items:
                items = [p.strip() for p in re.split(r"\s*[›»>/|]\s*", _own_text(trail))]
            title = normalise(self.title()[0]) if self.title() else ""
            places = [i for i in items if i and len(i) <= 60 and normalise(i) != title and place_score(i) >= 0.67]
            if places:
                return places[-1], Evidence(method="gazetteer", snippet_or_path=f"{self.path(trail)} breadcrumb",
                                            confidence=0.4)
            break  # the page's breadcrumb trail names no place
        return None

    def _place_in_title(self) -> tuple[str, Evidence] | None:
        """A place the title heading or the document title carries in brackets or at its end ("Fahrkartenkontrolleur
        (Bremen)", "Welder in Geel", "Welder - Geel", "Персонал в Германия"), when the gazetteer knows it."""
        title = self.title()
        texts = ([("title heading", title[0])] if title else []) + [("<title>", t) for t in self.doc_titles[:1]]
        for where, text in texts:
            for match in re.finditer(r"\(([^()]{2,60})\)", text):
                if place_score(match.group(1)) >= 0.67:
                    return match.group(1).strip(), Evidence(method="gazetteer", snippet_or_path=f"{where} "
                                                            f"({match.group(1)[:40]})", confidence=0.45)
            head = TITLE_SEPARATOR.split(text)[0]
            match = re.search(r"(?:\s+(?:in|à|in der|im|te|en|w|v|ve|в|във|во)\s+|\s+[-–—]\s+)([^-–—()]{2,60})$", head)
            if match and place_score(match.group(1)) >= 0.67:
                return match.group(1).strip(), Evidence(method="gazetteer", snippet_or_path=f"{where} ends in a "
                                                        "place", confidence=0.4)
        return None

    def _in_doc_title(self, text: str) -> bool:
        """Whether a whole part of the document title holds the text (a place repeated there)."""
        return len(text) > 2 and any(text in place_parts(part) for parts in self._title_parts for part in parts)

    # -- lookups employer and location share ------------------------------------------------------------------
    def _marked_field(self, itemprop: str, label: str, attribute: re.Pattern,
                      joined: bool = False) -> tuple[str, Evidence] | None:
        """The marked-up ways a page names a field, strongest first: schema.org microdata (``itemprop``), a
        labelled row, a class/id/data attribute naming it."""
        for element in self.root.iter():
            if isinstance(element.tag, str) and element.get("itemprop") == itemprop:
                text = clean_text(_own_text(element), MAX_FIELD)
                if text:
                    return text, Evidence(method="css", snippet_or_path=f"{self.path(element)} [itemprop]",
                                          confidence=0.75)
        if label in self.labelled:
            return self.labelled[label]
        return self._by_attribute(attribute, joined=joined)

    def _meta_title_match(self, *patterns: re.Pattern) -> tuple[str, re.Match | None]:
        """The first of og:title and <title> that one of the patterns matches (tried in order), with the match."""
        for key in ("og:title", "<title>"):
            for pattern in patterns:
                match = pattern.match(self.meta.get(key, ""))
                if match:
                    return key, match
        return "", None

    def _by_attribute(self, pattern: re.Pattern, joined: bool = False) -> tuple[str, Evidence] | None:
        """The first short, link-free element whose class/id/data attributes name the field (once per page)."""
        cache = self.__dict__.setdefault("_attribute_cache", {})
        if (pattern.pattern, joined) not in cache:
            cache[(pattern.pattern, joined)] = self._find_by_attribute(pattern, joined)
        return cache[(pattern.pattern, joined)]

    def _find_by_attribute(self, pattern: re.Pattern, joined: bool) -> tuple[str, Evidence] | None:
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
            source = strong if strong is not None and clean_text(_own_text(strong)) else element
            text = clean_text(_joined(source) if joined else _own_text(source), MAX_FIELD)
            if text and 2 <= len(text) < MAX_FIELD and label_field(text) is None:
                return text, Evidence(method="css", snippet_or_path=f"{self.path(element)} [{names[0]}]",
                                      confidence=0.6)
        return None

    # -- dates ------------------------------------------------------------------------------------------------
    def date_posted(self) -> tuple[str, Evidence] | None:
        fetched_at = self.context.fetched_at
        for found in self.labels.get("date_posted", []):
            iso = find_date(found.value, fetched_at=fetched_at)
            if iso:
                return iso, self._label_evidence(found, 0.65)
        meta = self._meta_line()
        if meta and meta[2]:
            # "St. George, UT · Full-time · Posted 2026-02-19": the date of the line beside the title.
            match = POSTED_PHRASE.search(meta[2])
            iso = find_date(match.group("date") if match else meta[2], fetched_at=fetched_at)
            if iso:
                return iso, Evidence(method="text-pattern", snippet_or_path=f"{self.path(meta[3])} beside the title, "
                                     f"its date {meta[2][:40]!r}", confidence=0.5)
        for element in self.facts:
            if element.tag == "time" and element.get("datetime"):
                iso = normalise_date(element.get("datetime"), fetched_at=fetched_at)
                if iso:
                    return iso, Evidence(method="css", snippet_or_path=f"{self.path(element)}@datetime",
                                         confidence=0.45)
        for key in DATE_META:
            iso = normalise_date(self.meta.get(key), fetched_at=fetched_at) if self.meta.get(key) else None
            if iso:
                return iso, Evidence(method="meta", snippet_or_path=f"meta {key}", confidence=0.5)
        for element in self.facts[:5_000]:
            text = element.text or ""
            if len(text) > 200 or not POSTED_PHRASE.search(text):
                continue
            match = POSTED_PHRASE.search(" ".join(text.split()))
            iso = find_date(match.group("date"), fetched_at=fetched_at) if match else None
            if iso:
                return iso, Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} "
                                                                            f"{match.group(0)[:60]!r}", confidence=0.45)
        return None

    def valid_through(self) -> tuple[str, Evidence] | None:
        for found in self.labels.get("valid_through", []):
            iso = find_date(found.value)
            if iso:
                return iso, self._label_evidence(found, 0.65)
        for element in self.content[:5_000]:
            # "Apply by 31 March 2027", "Bewerben Sie sich bis zum 15.01.2027", "Date limite 12/02/2027".
            text = element.text or ""
            if len(text) > 300 or not CLOSING_PHRASE.search(text):
                continue
            match = CLOSING_PHRASE.search(" ".join(text.split()))
            iso = find_date(match.group("date")) if match else None
            if iso:
                return iso, Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} "
                                                                            f"{match.group(0)[:60]!r}", confidence=0.5)
        return None

    # -- salary, description, apply link -----------------------------------------------------------------------
    def salary(self):
        labelled = self.labelled.get("salary")
        if labelled:
            salary = parse_salary(labelled[0], currency_hint=None)
            if salary:
                return salary, labelled[1]
            if re.search(r"[^\W\d_]{2}", labelled[0]):
                # A pay scale or a sentence without an amount ("TVöD E9", "competitive"): kept as text.
                return Salary(raw=" ".join(labelled[0].split())[:300]), labelled[1]
        for element in self.content:
            text = element.text or ""
            if SALARY_HINT.search(text) and re.search(r"\d", text) and len(text) < 120:
                salary = parse_salary(text)
                if salary and (salary.min or 0) >= 10:
                    return salary, Evidence(method="text-pattern", snippet_or_path=text.strip()[:200],
                                            confidence=0.5)
        return None

    def description(self) -> tuple[str, Evidence] | None:
        """The visible text of main, article or the body, boilerplate containers left out, bounded."""
        for xpath in ("//main", "//article", "//*[@role='main']", "//body"):
            for container in self.root.xpath(xpath):
                if self._in_chrome(container) and xpath != "//body":
                    continue
                lines = []
                for node in container.iter():
                    if not isinstance(node.tag, str):
                        continue
                    if not self._in_chrome(node) and node.text and node.text.strip():
                        lines.append(" ".join(node.text.split()))
                    if node is not container and node.tail and node.tail.strip() \
                            and not self._in_chrome(node.getparent()):
                        lines.append(" ".join(node.tail.split()))
                text = "\n".join(lines)[:20000]
                if len(text) > 200:
                    return text, Evidence(method="css", snippet_or_path=xpath, confidence=0.5)
        return None

    def apply_url(self) -> tuple[str, Evidence] | None:
        """The page's apply link, hrefs read against `<base href>`. Strongest first: a link to one posting on a
        known ATS (whatever its text: "Откликнуться", "Apply on the studio's site"); an apply link in the page's
        content, one to another site first; the page itself when it holds the application form; last an apply
        link of the site's header or menu (often one for every page: a listing or a general application)."""
        ats, content, frame = [], [], []
        for anchor in self.root.iter("a"):
            raw = (anchor.get("href") or "").strip()
            if not raw or raw.startswith(("#", "javascript:", "mailto:", "tel:")):
                continue
            try:
                href = urljoin(self.base, raw)
            except ValueError:  # a malformed link is no apply link
                continue
            if not is_http_url(href):
                continue
            text = clean_text(anchor.text_content(), 80) or " ".join(i.get("alt") or "" for i in anchor.iter("img"))
            provider = posting_of(href)
            if provider and host_of(href) != host_of(self.url) and not self._in_site_frame(anchor):
                ats.append((href, anchor, provider))
            if not text or len(text) > 60 or not APPLY_WORDS.search(text):
                continue
            (frame if self._in_chrome(anchor) and not self._weak_chrome(anchor) else content).append((href, anchor))
        for row in self.labels.get("apply_url", []):
            parent = row.element.getparent()
            link = parent.find(".//a[@href]") if parent is not None else None
            if link is not None and link is not row.element:
                href = urljoin(self.base, link.get("href").strip())
                if is_http_url(href):
                    content.append((href, link))
        if ats:
            href, anchor, provider = ats[0]
            return href, Evidence(method="css", snippet_or_path=f"{self.path(anchor)}@href ({provider} posting)",
                                  confidence=0.7)
        if content:
            href, anchor = sorted(content, key=lambda f: host_of(f[0]) == host_of(self.url))[0]
            external = host_of(href) != host_of(self.url)
            return href, Evidence(method="css", snippet_or_path=f"{self.path(anchor)}@href"
                                                                f"{' (another site)' if external else ''}",
                                  confidence=0.65 if external else 0.6)
        form = self._application_form()
        if form is not None and self.canonical_url():
            return self.canonical_url(), Evidence(method="css", snippet_or_path=f"{self.path(form)} application "
                                                  "form on the page", confidence=0.55)
        if frame:
            href, anchor = frame[0]
            return href, Evidence(method="css", snippet_or_path=f"{self.path(anchor)}@href (site menu)",
                                  confidence=0.35)
        return None

    def _application_form(self):
        """A form on the page that takes an application: a file upload, or at least four fields and a submit."""
        for form in self.root.iter("form"):
            if self._hidden(form) or re.search(r"search|log-?in|sign-?(?:in|up)|regist|account|newsletter|subscribe",
                                               f"{form.get('class') or ''} {form.get('id') or ''} "
                                               f"{form.get('action') or ''}", re.I):
                continue
            inputs = [i for i in form.iter("input", "textarea", "select")
                      if (i.get("type") or "text").lower() not in ("hidden", "submit", "button")]
            if any((i.get("type") or "").lower() == "password" for i in inputs):
                continue  # an account's sign-up or sign-in form, not an application
            if any((i.get("type") or "").lower() == "file" for i in inputs) or len(inputs) >= 4:
                return form
        return None
