"""The site owner: whose career site the samples come from, when neither the source's company nor JSON-LD says.

On a career site of one employer without JSON-LD, the employer's name is often stated only in template regions: a
footer's "© 2013-2015 Acme Co", the header logo's alt text, a breadcrumb, a sidebar's "About Acme". Learned as
template, those regions go, and the job's employer with them. This module reads the name the samples agree on from
what a site says about itself (og:site_name, application-name, a JSON-LD Organization or WebSite, the copyright
holder, a <title> affix, the header logo's alt text), and says nothing when the samples look like a job board
(their jobs link out to different employers, their titles name different companies, their menus list companies or
employers). The learner then treats the name as a job fact only where it is needed: when no content outside the
candidate regions states it on every sample.

Pure functions over the samples' raw bodies and prepared trees; learning only.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from itertools import islice
from urllib.parse import urlsplit

from lxml import etree

from gigflow.noise.learn.brand import header_brand_texts
from gigflow.noise.learn.classifier import JOB_FACT_SIGNALS, LEGAL_FORM_AT_END
from gigflow.noise.learn.outside import outside
from gigflow.noise.learn.template import job_section_in_content
from gigflow.noise.signal import Signal
from gigflow.noise.snippets import normalise_snippet
from gigflow.noise.statements import NOT_AN_ABBREVIATION

MAX_SCAN = 2_000_000  # characters of a body searched for meta tags and JSON-LD (bounded time on hostile pages)
MAX_NAME_CHARS = 60
MAX_NAME_WORDS = 6
MIN_NAME_CHARS = 2

_META = re.compile(r"<meta\b[^>]{0,2000}>", re.I)
_ATTR = re.compile(r"""([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_JSON_LD = re.compile(r"<script[^>]+application/ld\+json[^>]*>(.*?)</script>", re.I | re.S)
_OWNER_TYPES = frozenset({"organization", "corporation", "localbusiness", "website", "ngo",
                          "educationalorganization", "governmentorganization"})
# "© 2013-2015 Acme Co. All rights reserved", "Copyright (c) 2020 Acme", "© Acme 2021": the holder runs to a
# sentence end, a separator or the "all rights reserved" phrase.
_YEARS = r"(?:(?:19|20)\d\d(?:\s*[-–—/]\s*(?:(?:19|20)\d\d|present|heute))?[,.]?\s*)"
# "Copyright @2025 Acme": an at sign before the year stands for the sign
_COPYRIGHT = re.compile(r"(?P<mark>©|\(c\)|copyright)(?P<sign>\s*(?:©|\(c\)|copyright\b|@(?=\s*\d)))?"
                        r"\s*[-–—:]?\s*(?P<years>" +
                        _YEARS + r")?[-–—:,]?\s*(?P<name>[^\s\d|·•,;©][^|·•;©\n]{0,80})", re.I)
# "Acme © 2021", "InCodeks©2021": the holder before the sign, on a line of its own (a short name, no sentence)
# (a credit may follow the years after a dash or a bar: "Jane Doe © 2021 -- Powered by Hugo")
_COPYRIGHT_AFTER_NAME = re.compile(r"^(?P<name>[^\s\d|·•,;©][^|·•,;©\n]{0,60}?)\s*(?:©|\(c\))\s*" + _YEARS +
                                   r"?(?:all rights? reserved\.?)?(?:\s(?:--?|–|—|\||·|•)\s.{0,200})?$", re.I)
_NOTICE_WORDS = re.compile(r"\bcopyright\b|\brights?\b|\breserved\b", re.I)  # "Copyright © 2020", no holder
# The bare word inside a sentence ("a thesis entitled 'Sampling Copyright: an examination of ...'") is no notice:
# there it must be followed by a sign or a year ("All content copyright 2020 Acme").
_IN_SENTENCE = re.compile(r"[^\W_][\"'“”‘’]?\s*$")
_HOLDER_END = re.compile(r"\s*(?:\ball rights? reserved\b|\balle rechte vorbehalten\b|\btous droits réservés\b|"
                         r"\btodos los derechos reservados\b|\btutti i diritti riservati\b|"
                         r"\balle rechten voorbehouden\b|"
                         # a full stop ends the name, not an initial's or "& Co."'s ("© 2025 R. Acme GmbH & Co. KG")
                         r"\ball rights?\b|\." + NOT_AN_ABBREVIATION + r" |\.$|\s[-–—]\s|\s(?:19|20)\d\d\b).*$",
                         re.I | re.S)
_PRONOUNS = frozenset({"me", "myself", "i", "us", "we", "you"})
TITLE_SEPARATORS = re.compile(r"\s+(?:[|–—·:•»]|::)\s+|\s+-\s+|\s*\|\s*")
# Words that say what the page or the site section is, not whose: "Acme Careers", "Jobs at Acme", "Acme logo",
# also a logo's file or class name ("acme-logo", "logo_acme").
_GENERIC = re.compile(r"^(?:(?:(?:careers?|jobs?|vacancies|karriere|stellenangebote|emplois?|carrières?|vacatures|"
                      r"työpaikat|lediga jobb|home|homepage|startseite|official site|logo)\s+|logo[_-]+)"
                      r"(?:at|bei|chez|bij|@|in|with)?\s*)+|(?:\s+(?:careers?|jobs?|vacancies|karriere|jobs portal|"
                      r"career site|logo|home|homepage)|[_-]+logo)+$", re.I)
# Page-level words a site name is not: a title part like "Job Description" or "Apply now" names the page.
_NOT_A_NAME = re.compile(r"^(?:home|homepage|careers?|jobs?|job description|job details|apply( now)?|"
                         r"open positions|vacancies|logo|menu|search)$", re.I)

# A site's own name that says it lists jobs ("Biodesign Jobs", "Jobs in the Desert", "Harbor Job Board"): a
# board. Not "Careers", which a company's own career site is called as often.
_LISTING_NAME = re.compile(r"\b(?:jobs?|job ?boards?|boards?|vacancies|listings?|stellenmarkt|jobbörse|empleos|"
                           r"vagas|työpaikat|offres d'emploi)\b", re.I)
# What a job section's name may add to its owner's ("Acme Job Page", "Acme Careers Portal").
_SECTION_WORDS = re.compile(r"\b(?:page|portal|site|website|section)\b", re.I)
# A job board's menus name its other audience and its directory of companies.
_BOARD_LINKS = re.compile(r"\b(?:companies|employers|post (?:a|your) jobs?|for employers|recruiters?|"
                          r"(?:search|browse|explore) (?:by )?compan(?:y|ies)|company profiles?|"
                          r"arbeitgeber|für unternehmen|werkgevers|entreprises|recruteurs|empresas|"
                          r"työnantajille|yritykset|arbetsgivare|för arbetsgivare|"
                          # the same audience in Central European languages ("Pre firmy", "Dla pracodawców")
                          r"(?:pre|pro|dla) firmy?|zamestnávat\w*|zaměstnavat\w*|pracodawc\w*|munkáltató\w*|"
                          r"cégeknek|poslodavc\w*|delodajalc\w*|"
                          # Turkish and Russian ("İşveren Portalı", "Работодателям")
                          r"i[şs] ?veren\w*|работодател\w*)\b", re.I)
# "Senior Engineer at Acme (Berlin) | Board": a title naming the job's employer.
_TITLE_EMPLOYER = re.compile(r"\s(?:at|bei|chez|bij|@)\s+([^|–—·•»(\-]{2,60})", re.I)
BOARD_LINK_MAX_CHARS = 40
# An image that is a control, not the brand: "arrow down icon", "menu", "close".
_ICON = re.compile(r"\b(?:icon|arrow|chevron|menu|close|search|hamburger|toggle)\b", re.I)


def _norm(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


def _key(name: str) -> str:
    return _norm(name).casefold().rstrip(".")


def clean_name(text: str | None) -> str:
    """A site or company name as a site states it, without page words ("Careers at", "logo"); '' when it is not
    a plausible name (empty, too long, a page word, no letter)."""
    if not text or len(text) > 8 * MAX_NAME_CHARS:  # no name is that long (and the patterns stay linear)
        return ""
    # "Acme, Inc." is stated as "Acme" as often: the name before a comma matches both.
    name = _norm(text).split(",", 1)[0].strip(" -–—|·•:,")
    for _ in range(2):
        name = _GENERIC.sub("", name).strip(" -–—|·•:,")
    if (not MIN_NAME_CHARS <= len(name) <= MAX_NAME_CHARS or len(name.split()) > MAX_NAME_WORDS
            or _NOT_A_NAME.match(name) or not any(ch.isalpha() for ch in name)):
        return ""
    return name


def _decoded(body) -> str:
    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    return text[:MAX_SCAN]


def meta_names(body) -> list[str]:
    """og:site_name and application-name from the raw body (preparation removes meta tags)."""
    names = []
    for tag in _META.findall(_decoded(body)):
        attrs = {m.group(1).lower(): m.group(2) or m.group(3) or m.group(4) or "" for m in _ATTR.finditer(tag)}
        kind = (attrs.get("property") or attrs.get("name") or "").lower()
        if kind in ("og:site_name", "application-name", "apple-mobile-web-app-title"):
            names.append(html.unescape(attrs.get("content", "")))  # "L&#x27;Incubateur", "Smith &amp; Sons"
    return names


def json_ld_owner_names(body) -> list[str]:
    """Names of the JSON-LD Organizations and WebSites a page describes at its top level (or in its @graph); not
    those inside a JobPosting (its hiringOrganization is read elsewhere)."""
    names = []
    for block in _JSON_LD.findall(_decoded(body)):
        try:
            data = json.loads(block.strip())
        except (ValueError, RecursionError):  # malformed or nested past Python's limit: no names
            continue
        items = data if isinstance(data, list) else [data]
        for item in items[:50]:
            if isinstance(item, dict) and isinstance(item.get("@graph"), list):
                items.extend(x for x in item["@graph"][:50] if isinstance(x, dict))
        for item in items[:100]:
            if not isinstance(item, dict):
                continue
            types = item.get("@type")
            types = types if isinstance(types, list) else [types]
            if any(str(t).lower() in _OWNER_TYPES for t in types) and isinstance(item.get("name"), str):
                names.append(html.unescape(item["name"]))  # WordPress SEO plugins write "Mom&#039;s Design Build"
    return names


def copyright_holders(root) -> list[str]:
    """The holders named by "©/Copyright YEAR NAME" lines in the page's text."""
    holders = []
    blocks = set()
    for text in root.xpath("//text()"):
        if not text or not ("©" in text or "(c)" in text.lower() or "opyright" in text):
            continue
        # The holder is often a link after the sign ("© 2013-2015 <a>Acme Co</a>"): the whole line is read.
        node = text.getparent()
        block = node.getparent() if node is not None and text.is_tail else node
        while block is not None and block.tag in _INLINE and block.getparent() is not None:
            block = block.getparent()
        if block is not None:
            if block in blocks:
                continue
            blocks.add(block)
            lines = _lines(block)
        else:
            lines = [text]
        for line in lines:
            line = _norm(line)
            before = _COPYRIGHT_AFTER_NAME.match(line)
            if before and len(before.group("name").split()) <= 4 and not _NOTICE_WORDS.search(before.group("name")):
                holders.append(before.group("name").strip())
                continue
            for match in _COPYRIGHT.finditer(line):
                if (match.group("mark").lower() == "copyright" and not (match.group("sign") or match.group("years"))
                        and _IN_SENTENCE.search(line, 0, match.start())):
                    continue
                holder = _HOLDER_END.sub("", match.group("name"))
                if holder.strip().casefold() in _PRONOUNS:
                    continue  # a theme's default ("© 2023 Me."), left as it came: it names nobody
                if any(ch.isalpha() for ch in holder) and not holder.startswith(("-", "–", "—")):
                    holders.append(holder)
    return holders


def _lines(block) -> list[str]:
    """A block's text as a reader sees its lines: a heading or paragraph inside it ("© 2016 Acme" then a heading
    "Made with love by Acme") is a line of its own, not part of the holder's name."""
    parts: list[str] = []
    for event, el in etree.iterwalk(block, events=("start", "end")):
        inner = el is not block and isinstance(el.tag, str)
        if inner and el.tag in _BLOCK_TAGS:
            parts.append("\n")
        if event == "start" and isinstance(el.tag, str) and el.text:
            parts.append(el.text)
        elif event == "end" and el is not block and el.tail:
            parts.append(el.tail)
    return "".join(parts).split("\n")


_INLINE = frozenset({"a", "span", "small", "strong", "b", "em", "i", "font", "time", "sup", "sub"})
_BLOCK_TAGS = frozenset({"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "br", "hr", "section",
                         "header", "footer", "nav", "aside", "article", "address", "table", "tr", "td", "th", "dl",
                         "dt", "dd", "blockquote"})


def title_parts(root) -> list[str]:
    title = next(root.iter("title"), None)
    text = _norm(title.text_content()) if title is not None else ""
    return [part for part in TITLE_SEPARATORS.split(text) if part.strip()] if text else []


def logo_alts(root) -> list[str]:
    """The alt text of the first image in the page's header or in a link to the site's home page (the brand)."""
    for img in root.iter("img"):
        alt = _norm(img.get("alt"))
        if not alt or _ICON.search(alt):
            continue
        for node in img.iterancestors():
            role = (node.get("role") or "").strip().lower()
            home = False
            if node.tag == "a":
                try:
                    parts = urlsplit(node.get("href") or "")
                except ValueError:
                    parts = None
                home = parts is not None and parts.path in ("", "/") and not parts.query and not parts.fragment
            if node.tag == "header" or role == "banner" or home:
                return [alt]
    return []


_BRAND_TAGS = ("h1", "h2", "h3", "a", "strong", "b", "span", "div", "p")


def title_brand(root) -> list[str]:
    """The whole <title> where it is one name ("Acme", no separator) that the site's header states as a heading
    or link of its own (its brand): a site that titles every page by its name alone. A title that names the page
    ("Careers", "Jobs") is no name (``clean_name``); a page's own title is not its header's brand."""
    parts = title_parts(root)
    if len(parts) != 1 or not clean_name(parts[0]) or clean_name(parts[0]) != _norm(parts[0]):
        return []
    wanted = _key(parts[0])
    banners = (el for el in root.iter("header", "div", "nav")
               if el.tag == "header" or (el.get("role") or "").strip().lower() == "banner")
    for header in islice(banners, MAX_BANNERS):
        if any(node.tag in ("main", "article") for node in header.iterancestors()):
            continue  # a heading block inside the content, not the site's banner
        # Each element's own text (linear in the header, however deep it nests): "<h1>Acme</h1>", "<a>Acme</a>".
        for el in islice(header.iter(*_BRAND_TAGS), MAX_BRAND_ELEMENTS):
            if el.text and _key(_norm(el.text)) == wanted:
                return [parts[0]]
    return []


MAX_BANNERS = 3  # the site's header comes first; a page of nested <header>s is not searched further
MAX_BRAND_ELEMENTS = 200


def _names_on(sample, root) -> dict[str, str]:
    """Candidate owner names one sample states, by key, in order of preference (the copyright holder first: it
    is the name a footer states)."""
    found: dict[str, str] = {}
    candidates = (copyright_holders(root) + json_ld_owner_names(sample.body) + meta_names(sample.body)
                  + logo_alts(root) + title_brand(root) + header_brand_texts(root))
    for text in candidates:
        name = clean_name(text)
        if name:
            found.setdefault(_key(name), name)
    return found


def _in_affix(part: str, affix: str) -> bool:
    """A title part that is the affix or a piece of it ("Acme | Job Page" where other titles say "Acme Job
    Page"); a piece of three letters or fewer ("AI") only when it is the whole affix."""
    key, whole = _key(clean_name(part)), _key(affix)
    return key == whole or (len(key) > 3 and key in whole)


def _titles_are_headings(roots, affix: str) -> int:
    """How many samples' <title>, less the affix, is (or begins) one of the page's first <h1>s (<h2>s on a page
    without an <h1>)."""
    matched = 0
    for root in roots:
        parts = [part for part in title_parts(root) if clean_name(part) and not _in_affix(part, affix)]
        # any of the first few <h1> (a sidebar's brand heading may come before the page's own), or <h2> on a page
        # without one
        tag = "h1" if root.find(".//h1") is not None else "h2"
        headings = {" ".join(h.text_content().split()).casefold() for _, h in zip(range(4), root.iter(tag))}
        if not parts or not headings:
            continue
        rest = " ".join(" ".join(parts).split()).casefold()
        # the heading alone, or the first of the parts left beginning the heading ("Software Developer | 2 years"
        # over "Software Developer – Java")
        first = " ".join(parts[0].split()).casefold()
        matched += bool(rest) and (rest in headings or any(h == first or h.startswith(first + " ") for h in headings))
    return matched


def _listing_name(samples, roots) -> str:
    """The site's own name, as most samples state it at the start or end of their <title> or in their copyright
    line, where it says the site lists jobs; '' otherwise. Where most samples share one <title> (a careers
    section's, "IT Job Vacancy | Jobs in IT - Acme Infosys"), a title end whose other end is the name the sample
    states itself by ("© Acme Infosys") describes that section: the site is named at the other end."""
    counts: Counter = Counter()
    titles = Counter(" | ".join(title_parts(root)) for root in roots)
    for sample, root in zip(samples, roots):
        parts = title_parts(root)
        ends = {parts[0], parts[-1]} if len(parts) >= 2 else set()
        if len(parts) >= 2 and titles[" | ".join(parts)] > len(roots) // 2:
            plain = _plain_names(sample, root)
            ends = {end for end, other in ((parts[0], parts[-1]), (parts[-1], parts[0]))
                    if _key(clean_name(other) or other) not in plain}
        names = set(copyright_holders(root)) | ends
        counts.update({_norm(name) for name in names if name and _LISTING_NAME.search(name) and _names_a_site(name)})
    name, count = counts.most_common(1)[0] if counts else ("", 0)
    return name if count > len(roots) // 2 else ""


# Words that, with a listing word, name a section of any site ("Job Openings", "Current Vacancies", "Our Jobs").
_GENERIC_LISTING_WORDS = re.compile(r"\b(?:openings?|open|positions?|roles?|current|latest|new|all|our|careers?|"
                                    r"opportunit(?:y|ies)|details?|offers?)\b", re.I)


def _names_a_site(name: str) -> bool:
    """A listing name with a name of its own ("Greenfield Jobs"), not only words naming a section ("Job
    Openings"): a section's title says nothing about whose jobs the site lists."""
    rest = _GENERIC_LISTING_WORDS.sub(" ", _SECTION_WORDS.sub(" ", _LISTING_NAME.sub(" ", name)))
    return re.search(r"[^\W\d_]", rest) is not None


def _title_affix(roots) -> str:
    """A <title> part at the start or end shared by most samples ("Job | Acme" on every page)."""
    counts: Counter = Counter()
    shown: dict[str, str] = {}
    for root in roots:
        parts = title_parts(root)
        if len(parts) < 2:
            continue
        for part in {parts[0], parts[-1]}:
            name = clean_name(part)
            if name:
                counts[_key(name)] += 1
                shown.setdefault(_key(name), name)
    key, count = counts.most_common(1)[0] if counts else ("", 0)
    return shown[key] if count > len(roots) // 2 else ""


def _own_jobs_section(samples, roots, listing_name: str) -> bool:
    """Whether a name that says it lists jobs ("Acme Jobs") is one employer's own job section: the rest of the
    name is what most samples state as the site's owner elsewhere (the copyright holder, og:site_name, JSON-LD),
    and most <title>s, less that name, are the page's own <h1> alone ("Backend Developer | Acme Jobs"). A board's
    titles or headings add each job's employer ("Engineer - Shellworks")."""
    stem = _key(_norm(_SECTION_WORDS.sub(" ", _LISTING_NAME.sub(" ", listing_name))).strip(" -–—|·•:,"))
    if not stem:
        return False
    n = len(roots)
    stated = sum(1 for sample, root in zip(samples, roots) if stem in _plain_names(sample, root))
    affix = clean_name(listing_name) or listing_name
    return (stated > n // 2 and _titles_are_headings(roots, affix) > n // 2
            and _headings_add_to_title(roots, affix) <= n // 2)


def _plain_names(sample, root) -> set[str]:
    """The names (by key) a sample states itself by without a word for listing jobs: "© Acme 2023", not
    "© 2026 Greenfield Jobs" (a site that calls itself a job listing in its own copyright line). A legal name is
    also stated by its core: "R. Acme GmbH & Co. KG" states "Acme"."""
    stated = copyright_holders(root) + json_ld_owner_names(sample.body) + meta_names(sample.body)
    names = {clean_name(text) for text in stated if clean_name(text) and not _LISTING_NAME.search(text)}
    return {_key(form) for name in names for form in (name, _INITIALS.sub("", LEGAL_FORM_AT_END.sub("", name)))
            if form}


_INITIALS = re.compile(r"^(?:[^\W\d_]\.\s*)+")  # a founder's initials before the name ("R. Acme", "J.P. Acme")


def _headings_add_to_title(roots, affix: str) -> int:
    """How many samples have an <h1> that holds the <title>'s job and says more: a board's embedded posting
    adds its employer ("Account Manager - Shellworks", "Job Application for Engineer at MycoWorks")."""
    count = 0
    for root in roots:
        parts = [part for part in title_parts(root) if clean_name(part) and not _in_affix(part, affix)]
        rest = " ".join(" ".join(parts).split()).casefold()
        if not rest:
            continue
        headings = [" ".join(h.text_content().split()).casefold().strip(" #") for _, h in zip(range(4), root.iter("h1"))]
        count += any(rest in heading and len(heading) > len(rest) + 3 for heading in headings)
    return count


# A link inside a sentence of its own block ("familiar with <a>Python</a> and <a>Debian</a>") is a reference the
# posting makes, not the employer or the application system a board links each job to (GD).
_PROSE_BLOCKS = frozenset({"p", "li", "dd", "td", "blockquote"})
PROSE_MIN_WORDS = 6


def _inline_reference(a) -> bool:
    block = next((node for node in a.iterancestors() if node.tag in _PROSE_BLOCKS), None)
    if block is None:
        return False
    words = " ".join(block.text_content().split())
    own = " ".join(a.text_content().split())
    return len(words.split()) >= PROSE_MIN_WORDS and len(words) > 2 * len(own) \
        and not JOB_FACT_SIGNALS["apply"].search(own)


def looks_like_a_board(samples, roots, owner: str = "") -> str:
    """Why the samples look like a job board (jobs of different employers), or ''.

    - their outbound links go elsewhere on each page: two or more samples link out only to sites no other sample
      links to (each job's own employer or its application system), the links every sample makes aside (EC);
    - their titles name different companies ("Engineer at Apple", "Designer at Google");
    - most of them link to a directory of companies or a page for employers ("Companies", "Post a job").
    """
    n = len(roots)
    named_for_listing = _listing_name(samples, roots)
    if named_for_listing and not _own_jobs_section(samples, roots, named_for_listing):
        return f"the site's name says it lists jobs ({named_for_listing!r})"
    outbound = []
    for sample, root in zip(samples, roots):
        try:
            own = urlsplit(sample.url or "").netloc.lower()
        except ValueError:  # a page URL the parser refuses names no host of its own
            own = ""
        targets = set()
        for a in root.iter("a"):
            if _inline_reference(a):
                continue
            try:
                parts = urlsplit(a.get("href") or "")
            except ValueError:
                continue
            host = parts.netloc.lower()
            if parts.scheme in ("http", "https") and host and host != own:
                targets.add(f"{host}/{parts.path.lstrip('/').split('/', 1)[0]}")
        outbound.append(targets)
    every = Counter(t for targets in outbound for t in targets)
    alone = sum(1 for targets in outbound if targets and all(every[t] == 1 for t in targets))
    if alone >= 2:
        return f"{alone} of {n} samples link out only to sites no other sample links to"
    # EC: a target every sample links to is the template's (a theme credit, a donation page, the site's social
    # profiles), the same beside every job. Without them, two samples whose other outbound links go to hosts no
    # other sample links to at all (each job's own employer or application system) still make a board; by host, so
    # that one employer's postings on one job site ("indeed.com/job/…", "indeed.com/viewjob…") do not.
    hosts = [{t.split("/", 1)[0] for t in targets if every[t] < n} for targets in outbound]
    by_host = Counter(h for found in hosts for h in found)
    alone = sum(1 for found in hosts if found and all(by_host[h] == 1 for h in found))
    if alone >= 2 and any(every[t] == n for t in outbound[0]):
        return f"{alone} of {n} samples link out, beside the links every sample makes, only to sites no other " \
               "sample links to"
    named = set()
    for root in roots:
        for part in title_parts(root):
            for match in _TITLE_EMPLOYER.finditer(f" {part}"):
                name = _key(clean_name(match.group(1)))
                if name and not (owner and _key(owner) in name):
                    named.add(name)
    if len(named) >= 2:
        return f"the samples' titles name {len(named)} different companies"
    directory = sum(1 for root in roots if any(
        _BOARD_LINKS.search(text) for text in (_norm(a.text_content()) for a in root.iter("a"))
        if text and len(text) <= BOARD_LINK_MAX_CHARS))
    if directory > n // 2:
        return f"{directory} of {n} samples link to a directory of companies or a page for employers"
    return ""


def site_owner(samples, roots) -> str:
    """The name most samples state the site's owner by, or '' (no agreement, or the samples look like a board).

    ``samples``: TrainingPages (their raw bodies hold the meta tags and JSON-LD); ``roots``: their prepared trees.
    """
    n = len(roots)
    if n == 0:
        return ""
    counts: Counter = Counter()
    shown: dict[str, str] = {}
    order: dict[str, int] = {}
    for sample, root in zip(samples, roots):
        for rank, (key, name) in enumerate(_names_on(sample, root).items()):
            counts[key] += 1
            shown.setdefault(key, name)
            order[key] = min(order.get(key, rank), rank)
    # A title affix alone is weak (a board's name, a slogan); it confirms a name the site states another way, or
    # names the owner by itself where the rest of every title is the page's own heading ("<h1> | Acme": a site
    # that titles each page by its job alone; a board's titles add the employer, "Job at Acme | Board").
    affix = _title_affix(roots)
    if affix and (_key(affix) in counts or _titles_are_headings(roots, affix) > n // 2):
        counts[_key(affix)] = n
        shown.setdefault(_key(affix), affix)
        order.setdefault(_key(affix), 0)
    agreed = [key for key, count in counts.items() if count > n // 2]
    if not agreed:
        return ""
    key = min(agreed, key=lambda k: (-counts[k], order[k]))
    owner = shown[key]
    if _LISTING_NAME.search(owner) or looks_like_a_board(samples, roots, owner):
        return ""
    return owner


def stated_outside(name: str, roots, candidate_sets) -> bool:
    """Whether every sample states ``name`` (its text or an image's alt) outside its candidate regions, where no
    rule can remove it."""
    wanted = name.casefold()
    for root, candidates in zip(roots, candidate_sets):
        parts = []
        for el, text in outside(root, candidates):
            parts.append(text)
            if el is not None and el.tag == "img":
                parts.append(" " + (el.get("alt") or "") + " ")
        if wanted not in _norm(" ".join(parts)).casefold():
            return False
    return True


def owner_to_protect(owner: str, roots, candidate_sets) -> str:
    """The site owner's name (``site_owner``) when it must be kept as a job fact: some sample states it only in
    regions a rule could remove. '' otherwise."""
    if not owner or stated_outside(owner, roots, candidate_sets):
        return ""
    return owner


def spelled_out(owner: str, roots) -> str:
    """The name an acronym owner ("CQS") stands for where most samples write it out in a short text of its own
    ("Computational Quantum Science" in the footer): the employer's name too. '' otherwise."""
    if not re.fullmatch(r"[A-Z]{2,6}", owner):
        return ""
    counts: Counter = Counter()
    for root in roots:
        found = set()
        for text in root.xpath("//body//text()"):
            words = _norm(text).split()
            if len(words) == len(owner) and len(" ".join(words)) <= 80 and \
                    "".join(w[0] for w in words) == owner and all(w[0].isupper() for w in words):
                found.add(" ".join(words))
        counts.update(found)
    name, count = counts.most_common(1)[0] if counts else ("", 0)
    return name if count > len(roots) // 2 else ""


def owner_restated_by_removals(owner: str, decided: list, regions: list) -> list:
    """``decided`` with each removal that names the site owner recording the name as restated (GF).

    Learned where every sample names the owner in what stays (its job text, a kept line), the site header or footer
    naming it goes; a page whose posting never names its employer would lose the name with them. Apply keeps the
    first such region on a page that names the owner nowhere else (``apply._restated_elsewhere``).
    ``regions``: the first sample's element of each learned rule, in ``decided``'s order."""
    name = normalise_snippet(owner)
    if len(name) < 3:
        return decided
    turned = list(decided)
    for i, region in enumerate(regions[:len(decided)]):
        rule = decided[i]
        if rule.decision != "remove" or rule.restated:
            continue
        shown = " ".join([region.text_content(), *(img.get("alt") or "" for img in region.iter("img"))])
        if name in normalise_snippet(shown):
            turned[i] = rule.model_copy(update={"restated": [name]})
    return turned


NEEDLESS_REASON = "rules: names only the site owner, whom what stays on every sample names too"


def without_needless_owner_keeps(owner: str, samples, reused: list, decided: list, regions: list,
                                 config_hash: str) -> list:
    """``decided`` with the regions kept for nothing but the owner's name removed after all, where the name still
    appears in every sample's Markdown without them (a kept part of the job, another kept region states it); when
    it would vanish, the shortest of them stays and the others go.

    ``regions``: the first sample's element of each decided rule, in order. Only the innermost such keeps are
    turned: a kept region's parts were decided on their own, so the part naming the owner is the one to remove."""
    owner_only = {i for i, rule in enumerate(decided)
                  if rule.decision == "keep" and rule.signals == [Signal("employer", owner)]
                  and not job_section_in_content(regions[i])}
    kept_inside = {ancestor for i, rule in enumerate(decided) if rule.decision == "keep"
                   for ancestor in regions[i].iterancestors()}
    turnable = sorted((i for i in owner_only if regions[i] not in kept_inside),
                      key=lambda i: len(_norm(regions[i].text_content())))
    # Remove them all, else all but the shortest, all but the next shortest ...
    for stays in [None, *turnable[:MAX_OWNER_TRIALS]]:
        turn = {i for i in turnable if i != stays}
        if not turn:
            break
        trial = [rule.model_copy(update={"decision": "remove", "reason": NEEDLESS_REASON}) if i in turn else rule
                 for i, rule in enumerate(decided)]
        if _named_everywhere(owner, samples, reused + trial, config_hash):
            return trial
    return decided


# Trials of which owner-only region to keep (each prepares every sample once).
MAX_OWNER_TRIALS = 3


def _named_everywhere(owner: str, samples, rules: list, config_hash: str) -> bool:
    from gigflow.noise.learn.sample_facts import sample_markdown
    from gigflow.noise.model import NoiseFilter

    noise_filter = NoiseFilter(config_hash=config_hash, rules=rules)
    # As the site writes the name: a logo's capitals ("ACME LABS") are a reader's name too, but the name as
    # written is what a record and a search take.
    wanted = _norm(owner)
    for sample in samples:
        markdown = sample_markdown(sample, noise_filter)
        if wanted not in _norm(markdown.replace("\\", "")):
            return False
    return True
