"""The employer: what the page says about the hiring organisation, strongest first (EMPLOYER_SOURCES).

Markup (microdata, a label, a class naming it), the document title's "X hiring", "careers at X" and "Welder at X",
the title's neighbour in the document title, the line beside the title heading; then the source's configured
company; only then what names the site's operator (site name, logo, copyright line): on a board those name the
board, not the school or firm that hires.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from gigflow.adapters.common import clean_text, host_of
from gigflow.adapters.dates import normalise_date
from gigflow.adapters.gazetteer import place_score
from gigflow.adapters.generic.patterns import (AT_EMPLOYER, CAREERS_AT, COPYRIGHT, DESCRIBED_ORGANISATION, POSTED_BY,
                                               EMPLOYER_ATTR, HEADINGS, HIRING_HEADING, HIRING_TITLE, LEGAL_SUFFIX, LISTING_WORDS,
                                               ONLY_SECTION_WORDS, ORG_WORDS, RECRUITING_SITE, SECTION_OF_SITE, TITLE_SEPARATOR)
from gigflow.adapters.generic.rules import Source, first_found
from gigflow.adapters.generic.text import (is_section_heading, is_slogan, labels_another_field, opens_a_section,
                                           squash)
from gigflow.adapters.text_patterns import label_field, normalise, parse_salary
from gigflow.adapters.types import Evidence

# What an image's alt text says when it is no name: a loading animation, an icon, a placeholder.
# A file-like word may lead it ("footerIcon", "header-image").
NOT_A_LOGO = re.compile(r"(?:[a-z]+[-_]?)?(?:(?:pre)?loader|loading|spinner|icon|image|img|placeholder|banner|avatar)",
                        re.I)
POSTED_BY_BLOCKS = 2  # the blocks right after the title where a byline stands
HIRING_HEADING_TAGS = ("h1", "h2", "h3")
# A row naming the company's own site: "Website", "Company website", "Webseite", "Site web", "Sitio web".
WEBSITE_LABEL = re.compile(r"(?:company |employer )?(?:website|web site|homepage|webseite|site web|sitio web|"
                           r"site internet|sito web|website van het bedrijf)", re.I)
MAX_NAME_WORDS_IN_TITLE = 4
WEBSITE_ROW_MAX_CHARS = 300  # a label and an address: a longer block is no such row
EMPLOYER_MARKS = ("hiringOrganization", "employer", EMPLOYER_ATTR)


def _names_a_section(text: str) -> bool:
    """"Empleos", "Jobs", "Вакансии", "Career": words naming a site's job section, no one's name."""
    return len(text.split()) <= 2 and LISTING_WORDS.search(text) is not None or \
        ONLY_SECTION_WORDS.fullmatch(text.strip()) is not None


def _section_owner(part: str) -> str:
    """A document title's part that names the site's job section ("Acme Careers", "Pöppel Jobs"): its owner."""
    match = SECTION_OF_SITE.match(part)
    return match.group("name") if match else part


class EmployerFinder:
    """Mixin of the page (gigflow.adapters.generic.page.Page): the employer and the finders of its sources."""

    def employer(self) -> tuple[str, Evidence] | None:
        return first_found(self, EMPLOYER_SOURCES)

    def _marked_employer(self, kind: str) -> tuple[str, str] | None:
        found = self.marked(*EMPLOYER_MARKS)
        return found[1:] if found and found[0] == kind else None

    def _hiring_in_doc_title(self) -> tuple[str, str] | None:
        key, match = self.meta_title_match(HIRING_TITLE)
        return (match.group("employer"), f"{key} 'X hiring'") if match else None

    def _careers_at(self) -> tuple[str, str] | None:
        for key in ("<title>", "og:title"):
            for part in TITLE_SEPARATOR.split(self.meta.get(key, "")):
                match = CAREERS_AT.match(part.strip())
                if match:
                    return match.group("employer"), f"{key} 'careers at'"
        return None

    def _hiring_heading(self) -> tuple[str, str] | None:
        """A heading of the page's own content announcing who hires ("Etalab recrute", "Acme is hiring a Welder"):
        the name before the verb, unless it is the site's (a board or an incubator announcing its own)."""
        for element, chrome in self._chrome.items():
            if chrome or element.tag not in HIRING_HEADING_TAGS:
                continue
            match = HIRING_HEADING.match(" ".join(element.text_content().split()))
            name = match.group("employer").strip(" :–—-") if match else ""
            if name and self._plausible_employer(name) and not self._is_site_name(name) and not is_slogan(name):
                return name, f"{self.path(element)} 'X recrute'"
        return None

    def _website_in_title(self) -> tuple[str, str] | None:
        """A board's posting titled "<Company> <role>" ("Wistia Director of Customer Happiness") beside a
        "Website" row linking to the company's own site (wistia.com): the title's first words the site's address
        spells are the employer."""
        title = self.title()
        if not title:
            return None
        own_host = (urlsplit(self.url or "").hostname or "").removeprefix("www.")
        words = title[0].split()
        seen = set()  # each block read once: a hostile page's thousands of links in one block stay linear
        for anchor in self.root.iter("a"):
            block = anchor.getparent()
            if block is None or block in seen or self._in_chrome(anchor):
                continue
            seen.add(block)
            text = " ".join(block.text_content().split())
            if len(text) > WEBSITE_ROW_MAX_CHARS:
                continue
            label = text.replace(" ".join(anchor.text_content().split()), "")
            if not WEBSITE_LABEL.fullmatch(label.strip(" :：\n")):
                continue
            try:
                host = (urlsplit(urljoin(self.base, (anchor.get("href") or "").strip())).hostname or "")
            except ValueError:  # a malformed address names no site
                continue
            host = host.removeprefix("www.")
            if not host or host == own_host:
                continue
            keys = {squash(host.split(".")[0]), squash(host)}
            for count in range(1, min(len(words), MAX_NAME_WORDS_IN_TITLE) + 1):
                name = " ".join(words[:count]).strip(",:;–—-")
                if squash(name) in keys and count < len(words):
                    return name, f"{self.path(anchor)} website row, spelled by the title"
        return None

    def _posted_by(self) -> tuple[str, str] | None:
        """A board's byline under the title, "Posted by <a href=employer's site>Acme</a> on 23 Nov 2021": the name
        in a link to another site (an author's name links to a page of the site itself, or nowhere)."""
        title = getattr(self, "title_element", None)
        if title is None:
            return None
        own_host = urlsplit(self.url or "").hostname or ""
        following = [node for node in title.itersiblings() if isinstance(node.tag, str)][:POSTED_BY_BLOCKS]
        for block in following:
            text = " ".join(block.text_content().split())
            for anchor in block.iter("a"):
                name = " ".join(anchor.text_content().split())
                try:
                    host = urlsplit(urljoin(self.base, (anchor.get("href") or "").strip())).hostname or ""
                except ValueError:  # a malformed address names no site
                    continue
                if not name or not host or host == own_host:
                    continue
                before = text[:max(text.find(name), 0)]
                if POSTED_BY.search(before) and self._plausible_employer(name) and not self._is_site_name(name):
                    return name, f"{self.path(anchor)} 'posted by' beside the title"
        return None

    def _configured_company(self) -> tuple[str, str] | None:
        company = (self.context.company or "").strip()
        if not company or company.lower().removeprefix("www.") == host_of(self.url).removeprefix("www."):
            return None  # a host standing in for a name ("sources try" without --company) names no employer
        return company, "the source's configured company"

    def _employer_in_meta_line(self) -> tuple[str, str] | None:
        meta = self._meta_line()
        if meta and meta[0] and not label_field(meta[0].strip(" :：")) and not _marked_label(meta[3], meta[0]):
            if self.context.company and not ORG_WORDS.search(meta[0]) and not LEGAL_SUFFIX.search(meta[0]):
                # One company's career site ("Ablesung | Hamburg"): a bare word leading the line is its department;
                # the source's company stays the employer unless the line names an organisation.
                return None
            return meta[0], f"{self.path(meta[3])} beside the title, first segment"
        return None

    def _organisation_beside_title(self) -> tuple[str, str] | None:
        """A short line right after the title that names an organisation ("Oakfield Primary Academy, Leeds",
        "Acme GmbH · Berlin"): its organisation part, the place after a separator dropped."""
        for text, node, leafy in self._lines_after_title(3):
            if not leafy or len(text.split()) > 12 or parse_salary(text) or normalise_date(text):
                continue
            part = re.split(r"\s*[,·•|–—]\s*|\s+-\s+", text)[0].strip()
            if ORG_WORDS.search(part) and part[:1].isupper() and len(part.split()) <= 8 and \
                    self._plausible_employer(part) and not self._is_site_name(part) \
                    and not is_slogan(part) and not labels_another_field(part):
                return part, f"{self.path(node)} organisation beside the title"
        return None

    def _plausible_employer(self, text: str | None) -> bool:
        if text and _names_a_section(text):
            return False  # "Empleos", "Jobs", "Вакансии", "Career": a site's section, not an employer
        if text and (label_field(text.strip(" :：")) or NOT_A_LOGO.fullmatch(text.strip())):
            return False  # a field's label ("Expected start date") or an image's file word ("preloader")
        return bool(text) and 2 <= len(text) <= 100 and not is_section_heading(text) and \
            place_score(text) < 0.5 and not re.fullmatch(r"[\d\W]+", text) and \
            not (self.title() and normalise(text) == normalise(self.title()[0]))

    def _employer_at(self) -> tuple[str, str] | None:
        """"Welder at Acme" in a heading or the document title, the left side being the job title."""
        title = self.title()
        texts = [(key, self.meta.get(key, "")) for key in ("<title>", "og:title")]
        if title:
            texts.insert(0, ("title heading", self.title_as_written or title[0]))
        for key, text in texts:
            for part in [text] + TITLE_SEPARATOR.split(text):
                match = AT_EMPLOYER.match(part.strip())
                if match and self._plausible_employer(match.group("employer")) and \
                        (not title or is_section_heading(match.group("title"))
                         or normalise(match.group("title")) in normalise(title[0])
                         or normalise(title[0]) in normalise(match.group("title"))):
                    return match.group("employer").strip(), f"{key} 'at X'"
        return None

    def _employer_beside_title_in_doc_title(self) -> tuple[str, str] | None:
        """"Job Search - Welder - Acme Inc. - Geel - Board": the part after the job title, when not a place or
        the site. Bars separate more strongly than dashes ("Welder — Night shift | Acme": Acme)."""
        title = self.title()
        if not title:
            return None
        key = normalise(title[0])
        for raw, name in zip(self.doc_titles, ("<title>", "og:title", "twitter:title")):
            levels = [[p.strip() for p in _BAR.split(raw) if p.strip()]] if _BAR.search(raw) else []
            levels.append([p.strip() for p in TITLE_SEPARATOR.split(raw) if p.strip()])
            for parts in levels:
                # The part may be the title's start only ("Vacature kok" for the heading "Vacature kok (koude
                # keuken)"): the heading goes on with words the document title does not have.
                index = next((i for i, p in enumerate(parts) if key == normalise(p) or key in normalise(p)
                              or _goes_on(key, normalise(p), normalise(raw))), None)
                if index is None or len(parts) < 2:
                    continue
                for neighbour in (index + 1, index - 1):
                    if 0 <= neighbour < len(parts):
                        text = parts[neighbour]
                        owner = _section_owner(text)  # "Acme Careers": Acme, unless that is the site's name
                        if not self._is_site_name(owner):
                            text = owner
                        if self._plausible_employer(text) and not self._is_site_name(text) and \
                                not re.search(r"\d", text):
                            return text, f"{name} part beside the job title"
                break
        return None

    def _employer_beside_heading(self) -> tuple[str, str] | None:
        for text, node, leafy in self._lines_after_title(2):
            # Only a heading line (title, then company, then place): a sentence after the title is no employer.
            if node.tag in HEADINGS and place_score(text) == 0 and len(text.split()) <= 8:
                if self._plausible_employer(text) and not self._is_site_name(text) and \
                        not parse_salary(text) and not normalise_date(text) and not opens_a_section(node, text):
                    return text, f"{self.path(node)} beside the title"
            break
        return None

    def _title_other_half(self) -> tuple[str, str] | None:
        """The `<title>`'s other half when one half is the job title ('Analytics Engineer – Vercel')."""
        title = self.title()
        parts = [p.strip() for p in TITLE_SEPARATOR.split(self.meta.get("<title>", "")) if p.strip()]
        if len(parts) == 3:  # "Acme | Careers - Engineer": the section's word between the name and the job
            parts = [p for p in parts if not _names_a_section(p)]
        if title and len(parts) == 2 and normalise(title[0]) in (normalise(parts[0]), normalise(parts[1])):
            other = _section_owner(parts[1] if normalise(title[0]) == normalise(parts[0]) else parts[0])
            if not _names_a_section(other) and place_score(other) < 1.0:  # "Sales Rep - US": a place, no one's
                return other, "<title> beside the h1"
        return None

    def _plausible_site_name(self) -> tuple[str, str] | None:
        name = self._og_site_name()
        if name and RECRUITING_SITE.search(name):  # "採用サイト｜株式会社セガ": the owner without the site's words
            parts = [RECRUITING_SITE.sub("", p).strip() for p in TITLE_SEPARATOR.split(name)]
            parts = [p for p in parts if p]
            name = parts[0] if len(parts) == 1 else None
        parts = [p.strip() for p in _BAR.split(name or "") if p.strip()]
        if len(parts) >= 2:
            # "Spritle Software | Advanced Web & Mobile Solutions", "Careers | Acme": the name beside a tagline or a
            # section's word is the first part that can name an employer. Only bars part it: a dash may be the
            # name's own ("Matbud - Systemy Ppoż Sp. z o.o.").
            name = next((p for p in parts if self._plausible_employer(p)), None)
        if name and self._plausible_employer(name):
            return name, "og:site_name"
        return None

    def _site_section_owner(self) -> tuple[str, str] | None:
        """"GO-JEK Tech Job Description", "Acme Careers", "Acme Karriere": the site's owner before a section word."""
        title = self.title()
        for part in [p.strip() for p in TITLE_SEPARATOR.split(self.meta.get("<title>", "")) if p.strip()]:
            match = SECTION_OF_SITE.match(part)
            if match and self._plausible_employer(match.group("name")) and \
                    not (title and normalise(match.group("name")) in normalise(title[0])):
                return match.group("name"), "<title> 'X careers'"
        return None

    def _described_organisation(self) -> tuple[str, str] | None:
        """"СберАвтоТех — технологическая компания, ...", "Acme is a software company that ...": the site's
        description names its owner first."""
        for key in ("description", "og:description"):
            match = DESCRIBED_ORGANISATION.match(self.meta.get(key, ""))
            if match and self._plausible_employer(match.group("name")) and len(match.group("name").split()) <= 4:
                return match.group("name").strip(), f"meta {key} 'X is a company'"
        return None

    def _logo_alt(self) -> tuple[str, str] | None:
        for image in self.root.iter("img"):
            attributes = f"{image.get('class') or ''} {image.get('id') or ''} {image.get('src') or ''}".lower()
            if "logo" not in attributes:
                continue
            alt = clean_text(image.get("alt"), 100)
            alt = re.sub(r"\s*\blogo\b\s*", " ", alt or "", flags=re.I).strip(" -|")
            alt = RECRUITING_SITE.sub("", alt).strip(" -|") or alt  # "RACE Recruiting Site": RACE
            if alt and self._plausible_employer(alt):
                return alt, f"{self.path(image)}@alt (logo)"
        return None

    def _copyright(self) -> tuple[str, str] | None:
        for element, _ in reversed(list(self._chrome.items())[-400:]):
            # The line's own words with its inline parts: "Copyright © <span id=year></span> Acme Co., Ltd."
            # (a script writes the year) names its holder after the span.
            text = clean_text(_line_text(element), 200) or ""
            if "©" not in text and "copyright" not in text.lower() and "(c)" not in text.lower():
                continue
            match = COPYRIGHT.search(text)
            if match:
                name = match.group("name").strip(" .,-")
                if self._plausible_employer(name):
                    return name, f"{self.path(element)} copyright"
        return None


EMPLOYER_SOURCES = (
    Source("microdata", lambda page: page._marked_employer("itemprop"), "css", 0.75,
           "schema.org microdata: itemprop=hiringOrganization"),
    Source("label", lambda page: page._marked_employer("label"), "label", 0.65, "a label row (\"Company: Acme\")"),
    Source("class naming the employer", lambda page: page._marked_employer("attribute"), "css", 0.6,
           "an element whose class, id or data attribute names the employer (company-name)"),
    Source("X hiring in the document title", lambda page: page._hiring_in_doc_title(), "meta", 0.6,
           "\"Acme hiring Welder in Geel\" in og:title or <title>"),
    Source("careers at X in the document title", lambda page: page._careers_at(), "meta", 0.55,
           "\"Careers at Acme\", \"Werken bij Acme\": a part of <title> or og:title"),
    Source("title at X", lambda page: page._employer_at(), "text-pattern", 0.6,
           "\"Welder at Acme\" in the title heading or the document title"),
    Source("X hiring in a heading", lambda page: page._hiring_heading(), "heading", 0.55,
           "a heading announcing who hires: \"Etalab recrute\", \"Acme is hiring\""),
    Source("posted by X beside the title", lambda page: page._posted_by(), "text-pattern", 0.5,
           "a byline under the title naming the employer in a link to its own site (\"Posted by Acme on ...\")"),
    Source("beside the title in the document title", lambda page: page._employer_beside_title_in_doc_title(),
           "meta", 0.5, "the part of the document title next to the job title, when no place or the site"),
    Source("heading beside the title", lambda page: page._employer_beside_heading(), "heading", 0.45,
           "a heading right after the title heading (title, then company, then place)"),
    Source("organisation beside the title", lambda page: page._organisation_beside_title(), "text-pattern", 0.5,
           "a short line after the title naming an organisation (\"Oakfield Primary Academy, Leeds\")"),
    Source("facts line beside the title", lambda page: page._employer_in_meta_line(), "text-pattern", 0.45,
           "the first segment of the facts line after the title, beside a place or a date"),
    Source("website spelled by the title", lambda page: page._website_in_title(), "css", 0.45,
           "a \"Website\" row linking to the company's site, whose name the title starts with"),
    Source("configured company", lambda page: page._configured_company(), "config", 0.35,
           "the source's configured company: what the page does not say"),
    Source("other half of the document title", lambda page: page._title_other_half(), "meta", 0.45,
           "<title> in two halves, one of them the job title"),
    Source("site name", lambda page: page._plausible_site_name(), "meta", 0.4, "og:site_name"),
    Source("X careers in the document title", lambda page: page._site_section_owner(), "meta", 0.35,
           "\"Acme Careers\": the site's owner before a section word"),
    Source("description names the organisation", lambda page: page._described_organisation(), "meta", 0.3,
           "\"Acme is a software company ...\": meta description"),
    Source("logo alt text", lambda page: page._logo_alt(), "css", 0.35, "the alt text of the site's logo"),
    Source("copyright line", lambda page: page._copyright(), "text-pattern", 0.3, "the copyright holder"),
)


def _goes_on(title: str, part: str, whole: str) -> bool:
    """The title starts with the document title's ``part`` (two words at least) and goes on with words ``whole``
    does not have: a heading fuller than the document title, not a title holding the document title's parts."""
    rest = title[len(part):].strip()
    return len(part.split()) >= 2 and title.startswith(part + " ") and bool(rest) and rest not in whole


def _marked_label(node, text: str) -> bool:
    """``text`` is a field's label by its markup (``<span class="label">Expected start date</span>``)."""
    return any(isinstance(el.tag, str) and "label" in re.split(r"[\s_-]+", (el.get("class") or "").lower())
               and " ".join(el.text_content().split()) == text for el in node.iter())


def _line_text(element) -> str:
    """``element``'s own text, read on past inline parts that hold no words (an empty year a script fills, a
    year): "Copyright © <span id=year></span> Acme Co., Ltd." names its holder after the span."""
    parts = [element.text or ""]
    for child in element:
        if not isinstance(child.tag, str):
            parts.append(child.tail or "")
            continue
        words = child.text_content().strip()
        if child.tag in _BLOCKS or (words and not words.replace("-", "").replace("–", "").isdigit()):
            break
        parts.append(words)
        parts.append(child.tail or "")
    return " ".join(parts)


_BLOCKS = frozenset({"div", "p", "ul", "ol", "li", "section", "nav", "footer", "header", "table", "br"})
_BAR = re.compile(r"\s*[|｜]\s*")
