"""Generic HTML fallback: h1 and title-like classes, meta, microdata, labelled lists and tables, text patterns.

Reads the raw HTML (scripts, styles and templates dropped; header, nav, footer, dialogs skipped for fields), so
it works on any page the specialised adapters do not know. A page without a recognisable title yields no job.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml import etree

from gigflow.adapters.common import as_bytes, clean_text, is_http_url
from gigflow.adapters.text_patterns import SALARY_HINT, label_field, normalise, parse_date, parse_salary
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult
from gigflow.documents.html import decode_html, parse_html

BASE_CONFIDENCE = 0.45
MAX_CONFIDENCE = 0.75
MAX_FIELD = 200
MAX_HTML_BYTES = 10_000_000

# Boilerplate containers: fields found inside them belong to the site, not the vacancy.
CHROME_TAGS = {"header", "nav", "footer", "dialog", "aside", "form"}
CHROME_TOKENS = re.compile(r"(^|[-_ ])(header|gnb|lnb|nav|navbar|menu|footer|modal|popup|layer|dialog|cookie|"
                           r"breadcrumbs?|sidebar|related|similar|recommend\w*|sign-in|signin|login|toast)($|[-_ ])",
                           re.I)
TITLE_CLASS = re.compile(r"(^|[-_ ])(job|posting|vacancy|vacature|position|detail|topcard|top-card|hero|head)"
                         r"[-_]{0,2}(title|name|ttl)($|[-_ ])|^title$", re.I)
EMPLOYER_ATTR = re.compile(r"(^|[-_ ])(company|employer|advertiser|hiring-?organi[sz]ation|org|corp|werkgever)"
                           r"([-_ ]{1,2}(name|info|link|title))?($|[-_ ])", re.I)
LOCATION_ATTR = re.compile(r"(^|[-_ ])(job[-_]?)?(location|locations|joblocation|workplace|standort|locatie)"
                           r"($|[-_ ])", re.I)
ATTR_EXCLUDED = re.compile(r"logo|review|icon|site|employers|search|input|typeahead|filter|list", re.I)
APPLY_WORDS = re.compile(r"^(apply|apply now|apply for this job|solliciteer|solliciteren|bewerben|jetzt bewerben|"
                         r"postuler|reagovať|応募|지원하기|입사지원)", re.I)
PLACE_MARKERS = ("📍",)
# "Heidi hiring Senior Engineer in Melbourne | LinkedIn", "Werken bij GRIP", "Jobs at Acme", "Careers at Acme".
HIRING_TITLE = re.compile(r"^(?P<employer>.+?) hiring (?P<title>.+?) in (?P<location>.+?)(\s[|–-]\s.*)?$")
JOB_IN_TITLE = re.compile(r"^(?P<title>.+?) Job in (?P<location>.+?)(\s[|–-]\s.*)?$")
CAREERS_AT = re.compile(r"^(werken bij|careers at|jobs at|work at|working at|karriere bei|jobs bei|"
                        r"travailler chez|vacatures bij)\s+(?P<employer>.+)$", re.I)
TITLE_SEPARATOR = re.compile(r"\s+[|–—-]\s+|\s*｜\s*")


class GenericHtmlAdapter:
    parser_key = "generic-html"
    parser_version = "1.0.0"

    def supports(self, url: str, content: bytes | str) -> bool:
        head = as_bytes(content)[:1024].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        return not head.startswith((b"{", b"[", b"<?xml", b"<rss", b"<feed"))

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult:
        data = as_bytes(content)
        warnings = []
        if len(data) > MAX_HTML_BYTES:
            warnings.append(f"generic-html: page of {len(data)} bytes cut to {MAX_HTML_BYTES}")
            data = data[:MAX_HTML_BYTES]
        try:
            root = parse_html(decode_html(data)[0])
        except (etree.ParserError, ValueError) as exc:
            return self._result([], warnings + [f"generic-html: unreadable HTML ({exc})"])
        meta = _meta(root)
        etree.strip_elements(root, "script", "style", "noscript", "template", "svg", with_tail=False)
        page = _Page(root, meta, url)
        job = page.job()
        if job is None:
            return self._result([], warnings + ["generic-html: no recognisable title"])
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


class _Page:
    def __init__(self, root, meta: dict[str, str], url: str):
        self.root, self.meta, self.url = root, meta, url
        self.tree = root.getroottree()
        # Whether each element sits in boilerplate, decided once top-down (parents come before children).
        self._chrome: dict = {}
        for element in root.iter():
            if isinstance(element.tag, str):
                parent = element.getparent()
                self._chrome[element] = (parent is not None and self._chrome.get(parent, False)) or \
                    self._is_chrome(element)
        self.content = [e for e, chrome in self._chrome.items() if not chrome]
        self.labelled = self._labelled_values()

    # -- where things are -------------------------------------------------------------------------------
    @staticmethod
    def _is_chrome(node) -> bool:
        if node.tag in CHROME_TAGS or node.get("role") in ("navigation", "banner", "contentinfo", "dialog"):
            return True
        return bool(CHROME_TOKENS.search(f"{node.get('class') or ''} {node.get('id') or ''}"))

    def _in_chrome(self, element) -> bool:
        return self._chrome.get(element, False) if element is not None else False

    def path(self, element) -> str:
        return self.tree.getpath(element)[:200]

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
                             ("description", self.description), ("apply_url", self.apply_url)):
            found = finder()
            if found:
                setattr(job, name, found[0])
                job.evidence[name] = found[1]
        salary = self.salary()
        if salary:
            job.salary, job.evidence["salary"] = salary
        for name in ("date_posted", "valid_through"):
            found = self.labelled.get(name)
            date = parse_date(found[0]) if found else None
            if date:
                setattr(job, name, date)
                job.evidence[name] = found[1]
        if job.location:
            job.locations = [job.location]
        return job

    def canonical_url(self) -> str | None:
        for link in self.root.iter("link"):
            if "canonical" in (link.get("rel") or "").lower():
                href = urljoin(self.url, (link.get("href") or "").strip())
                if is_http_url(href):
                    return href
        og = self.meta.get("og:url")
        if og and is_http_url(og):
            return og
        return self.url if is_http_url(self.url) else None

    def title(self) -> tuple[str, Evidence] | None:
        for heading in self.content:
            if heading.tag == "h1":
                text = clean_text(_own_text(heading), 300)
                if text and len(text) >= 3:
                    return text, Evidence(method="heading", snippet_or_path=self.path(heading), confidence=0.7)
        for element in self.content:
            if TITLE_CLASS.search(element.get("class") or "") and element.tag not in ("a", "img", "button"):
                text = clean_text(_own_text(element), 300)
                if text and len(text) >= 3:
                    return text, Evidence(method="css", snippet_or_path=f"{self.path(element)} [class title]",
                                          confidence=0.6)
        match = HIRING_TITLE.match(self.meta.get("og:title", "")) or JOB_IN_TITLE.match(self.meta.get("og:title", ""))
        if match:
            return match.group("title"), Evidence(method="meta", snippet_or_path="og:title pattern", confidence=0.55)
        return None

    def employer(self) -> tuple[str, Evidence] | None:
        for element in self.root.iter():
            if isinstance(element.tag, str) and element.get("itemprop") == "hiringOrganization":
                text = clean_text(_own_text(element), MAX_FIELD)
                if text:
                    return text, Evidence(method="css", snippet_or_path=f"{self.path(element)} [itemprop]",
                                          confidence=0.75)
        if "employer" in self.labelled:
            return self.labelled["employer"]
        found = self._by_attribute(EMPLOYER_ATTR)
        if found:
            return found
        for key in ("og:title", "<title>"):
            match = HIRING_TITLE.match(self.meta.get(key, ""))
            if match:
                return match.group("employer"), Evidence(method="meta", snippet_or_path=f"{key} 'X hiring'",
                                                         confidence=0.6)
        for key in ("<title>", "og:title"):
            for part in TITLE_SEPARATOR.split(self.meta.get(key, "")):
                match = CAREERS_AT.match(part.strip())
                if match:
                    return match.group("employer"), Evidence(method="meta", snippet_or_path=f"{key} 'careers at'",
                                                             confidence=0.55)
        return self._site_name()

    def _site_name(self) -> tuple[str, Evidence] | None:
        """'Analytics Engineer – Vercel': the title's other half when one half is the page's h1."""
        title = self.title()
        raw = self.meta.get("<title>", "")
        parts = [p.strip() for p in TITLE_SEPARATOR.split(raw) if p.strip()]
        if title and len(parts) == 2 and normalise(title[0]) in (normalise(parts[0]), normalise(parts[1])):
            other = parts[1] if normalise(title[0]) == normalise(parts[0]) else parts[0]
            return other, Evidence(method="meta", snippet_or_path="<title> beside the h1", confidence=0.45)
        return None

    def location(self) -> tuple[str, Evidence] | None:
        for element in self.root.iter():
            if isinstance(element.tag, str) and element.get("itemprop") == "jobLocation":
                text = clean_text(_own_text(element), MAX_FIELD)
                if text:
                    return text, Evidence(method="css", snippet_or_path=f"{self.path(element)} [itemprop]",
                                          confidence=0.75)
        if "location" in self.labelled:
            return self.labelled["location"]
        found = self._by_attribute(LOCATION_ATTR, joined=True)
        if found:
            return found
        for element in self.content:
            text = (element.text or "").strip()
            if text.startswith(PLACE_MARKERS):
                place = clean_text(text.lstrip("".join(PLACE_MARKERS)), MAX_FIELD)
                if place:
                    return place, Evidence(method="text-pattern", snippet_or_path=f"{self.path(element)} 📍",
                                           confidence=0.5)
        for key in ("og:title", "<title>"):
            match = HIRING_TITLE.match(self.meta.get(key, "")) or JOB_IN_TITLE.match(self.meta.get(key, ""))
            if match:
                return match.group("location"), Evidence(method="meta", snippet_or_path=f"{key} '... in X'",
                                                         confidence=0.5)
        return None

    def _by_attribute(self, pattern: re.Pattern, joined: bool = False) -> tuple[str, Evidence] | None:
        """The first short, link-free element whose class/id/data attributes name the field."""
        for element in self.content:
            attributes = " ".join(v for k, v in element.attrib.items()
                                  if k in ("class", "id", "data-automation", "data-testid", "data-qa"))
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
            if text and 2 <= len(text) < MAX_FIELD:
                return text, Evidence(method="css", snippet_or_path=f"{self.path(element)} [{names[0]}]",
                                      confidence=0.6)
        return None

    def salary(self):
        labelled = self.labelled.get("salary")
        if labelled:
            salary = parse_salary(labelled[0], currency_hint=None)
            if salary:
                return salary, labelled[1]
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
        for anchor in self.root.iter("a"):
            if APPLY_WORDS.match(clean_text(anchor.text_content(), 60) or ""):
                href = urljoin(self.url, (anchor.get("href") or "").strip())
                if is_http_url(href) and "#" not in href.split("/")[-1][:1]:
                    return href, Evidence(method="css", snippet_or_path=f"{self.path(anchor)}@href", confidence=0.6)
        return None

    # -- labels -----------------------------------------------------------------------------------------------
    def _labelled_values(self) -> dict[str, tuple[str, Evidence]]:
        """dt/dd, th/td and "Label: value" pairs, and headings naming a field followed by their value."""
        found: dict[str, tuple[str, Evidence]] = {}
        for element in self.content:
            own = (element.text or "").strip()
            if not own or len(own) > 60:
                continue
            inline = re.match(r"^([^:：]{1,40})[:：]\s*(.+)$", own)
            field = label_field(own) or (label_field(inline.group(1)) if inline else None)
            if not field or field in found:
                continue
            value = inline.group(2) if inline and not label_field(own) else self._value_after(element)
            value = clean_text(value, MAX_FIELD) if value else None
            if value and label_field(value) is None:
                found[field] = (value, Evidence(method="css", snippet_or_path=f"{self.path(element)} label {own[:40]!r}",
                                                confidence=0.65))
        return found

    def _value_after(self, label) -> str | None:
        if label.tail and label.tail.strip(" :：\n\t"):
            return label.tail.strip(" :：\n\t")
        sibling = label.getnext()
        while sibling is not None and (not isinstance(sibling.tag, str) or sibling.tag == "br"):
            if sibling.tail and sibling.tail.strip():
                return sibling.tail
            sibling = sibling.getnext()
        if sibling is None:
            return None
        if sibling.find(".//p") is not None or sibling.find(".//div") is not None or sibling.find(".//li") is not None:
            # A value made of several blocks (address, then "nearest station ..."): its first block is the value.
            return next((" ".join(t.split()) for t in sibling.itertext() if t.strip()), None)
        return " ".join(sibling.text_content().split()) or None
