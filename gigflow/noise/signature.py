"""Region signatures: text, element structure, and the attributes that mean something (links included).

A template region is the same on every page of a site except where it refers to the page itself: a share or
"save job" link carries the page's URL, a login or language link its path (``?redirect=/jobs/123``), a tweet
link its title; the current menu item carries a marker; a counter or a copyright year changes. Version 2
signatures normalise those self-references before hashing, so one template region has one signature on every
page:

- link targets (href, form actions) count by host and first path segment only: a language switcher or a login
  link goes to another page from every page, but to the same place;
- the page's URL, path, slug segments and ids (plain and percent-encoded) and its title, in other attribute
  values, become placeholders; the title in text too;
- digits in text count as one digit (counters, dates, years);
- per-build and state attributes (id, class, style, data-*, aria-current, aria-selected, aria-expanded, tabindex,
  nonce, the value of hidden inputs) do not count.

Version 1 signatures (filters stored before) keep their old meaning: see ``region_signature_v1``.
"""

from __future__ import annotations

import hashlib
import re
from urllib.parse import quote, quote_plus, urlsplit

from lxml import etree

# id, class and inline style are often generated per build or per page, so they never enter a signature.
VOLATILE_ATTRIBUTES = frozenset({"id", "class", "style"})
# Attributes that say which item is current, open or selected, or carry per-render tokens.
STATE_ATTRIBUTES = frozenset({"aria-current", "aria-selected", "aria-expanded", "aria-pressed", "aria-checked",
                              "aria-hidden", "tabindex", "nonce", "checked", "selected", "autocomplete"})
SIGNATURE_VERSION = 2
_DIGITS = re.compile(r"\d+")
_SEGMENT_SPLIT = re.compile(r"[/?&=#;,]+")
# A self-reference shorter than this is too likely to occur by chance in other values.
MIN_REFERENCE_CHARS = 4
MAX_REFERENCES = 40


def volatile_attribute(name: str) -> bool:
    return name in VOLATILE_ATTRIBUTES or name in STATE_ATTRIBUTES or name.startswith("data-")


# A folder's index page named in a link ("/jobs/welder/index.html", as static exports and site copies write them):
# the folder itself ("/jobs/welder/").
_DIRECTORY_INDEX = re.compile(r"(?:^|/)(?:index|default)\.(?:html?|php|aspx?)$", re.I)
# A link to a map service: its text is the place it shows (an office's street, a job card's city), not a page of
# the site.
MAP_LINK = re.compile(r"^https?://(?:[\w-]+\.)*(?:google\.[a-z.]+/maps|goo\.gl/maps|maps\.app\.goo\.gl|"
                      r"maps\.google\.[a-z.]+|maps\.apple\.com|(?:www\.)?openstreetmap\.org|bing\.com/maps|"
                      r"here\.com|waze\.com|yandex\.[a-z]+/maps|map\.naver\.com|map\.kakao\.com)", re.I)


def link_folder(href: str | None) -> str:
    """The folder of a link's target ("example.com/careers/job" for "https://example.com/careers/job/welder/" and
    for ".../job/welder/index.html"), '' for a link to a site's top folder, a fragment, a mail."""
    try:
        parts = urlsplit((href or "").strip())
    except ValueError:
        return ""
    path = _DIRECTORY_INDEX.sub("", parts.path)
    if parts.scheme not in ("", "http", "https") or not path.strip("/"):
        return ""
    segments = path.strip("/").split("/")
    return f"{parts.netloc.lower()}/{'/'.join(segments[:-1])}" if len(segments) >= 2 else ""


class SelfReferences:
    """The strings by which a page refers to itself, longest first, each with its placeholder."""

    def __init__(self, page_url: str | None = None, titles: tuple[str, ...] = ()):
        found: dict[str, str] = {}

        def add(value: str, placeholder: str) -> None:
            value = value.strip()
            if len(value) >= MIN_REFERENCE_CHARS and value not in found:
                found[value] = placeholder

        try:  # a page URL the parser refuses (``http://[x``) names nothing to normalise
            parts = urlsplit(page_url) if page_url else None
        except ValueError:
            parts = page_url = None
        if page_url:
            bare = page_url.split("#", 1)[0]
            for value in (bare, bare.split("?", 1)[0], bare.rstrip("/")):
                for form in (value, quote(value, safe=""), quote_plus(value)):
                    add(form, "{url}")
            path = parts.path.rstrip("/")
            if path.count("/") >= 1 and len(path) > 1:
                for form in (path, quote(path, safe="")):
                    add(form, "{path}")
            segments = [s for s in _SEGMENT_SPLIT.split(f"{parts.path}?{parts.query}") if s]
            # The last segments name the page (its slug, its id); the first ones name the section ("jobs").
            for segment in segments[1:] if len(segments) > 1 else segments:
                add(segment, "{ref}")
            for number in re.findall(r"\d{3,}", f"{parts.path}?{parts.query}"):
                add(number, "{id}")
        for title in titles:
            title = " ".join(title.split())
            if len(title) >= 8:
                for form in (title, quote(title, safe=""), quote_plus(title), quote(title)):
                    add(form, "{title}")
        self.references = sorted(found.items(), key=lambda kv: -len(kv[0]))[:MAX_REFERENCES]
        # The folder the page's own address lies in ("example.com/jobs" for /jobs/welder/): its other postings'.
        self.folder = link_folder(page_url) if page_url else ""
        # In text the title counts only as whole words: a site's slogan "... for Forward Deployed Engineers" on
        # every page is not the page naming itself when the job is called "Forward Deployed Engineer".
        self._title_patterns = [re.compile(rf"(?<!\w){re.escape(reference)}(?!\w)")
                                for reference, placeholder in self.references if placeholder == "{title}"]
        # A title cut short ("Corporate Account Executive - TX & L" in a breadcrumb, "Senior Data Engin…" in a
        # share text) still names the page: text that ends with the start of a title, long enough to be no chance.
        self._cut_titles = [" ".join(title.split()) for title in titles if len(" ".join(title.split())) >= 8]

    @classmethod
    def of_page(cls, root, page_url: str | None) -> "SelfReferences":
        """From the prepared page: its URL, its first <h1> and its <title>."""
        return cls(page_url, tuple(title for title in page_titles(root) if title))

    def attribute(self, value: str) -> str:
        if "%" in value:  # a share link may escape the page's URL in lower case ("https%3a%2f%2f…"); quote() never does
            value = _PERCENT_ESCAPE.sub(lambda m: m.group(0).upper(), value)
        for reference, placeholder in self.references:
            if reference in value:
                value = value.replace(reference, placeholder)
        return value

    def text(self, value: str) -> str:
        for pattern in self._title_patterns:
            value = pattern.sub("{title}", value)
        for title in self._cut_titles:
            value = _cut_title(value, title)
        return _DIGITS.sub("0", value)


_PERCENT_ESCAPE = re.compile(r"%[0-9a-f]{2}", re.I)

NO_REFERENCES = SelfReferences()

# A title cut short counts when its kept start is this long at least, and at least half the title (class CA).
CUT_TITLE_MIN_CHARS = 20
_ELLIPSIS = re.compile(r"\s*(?:…|\.{2,})\s*$")


def page_titles(root) -> tuple[str, str]:
    """(its first <h1>'s text, its <title>'s text) of a prepared page, '' where it has none."""
    h1 = root.find(".//h1")
    title = root.find(".//title")
    return (h1.text_content() if h1 is not None else "",
            title.text or "" if title is not None else "")


def _cut_title(value: str, title: str) -> str:
    """``value`` with a start of ``title`` that ends it (cut short, perhaps with an ellipsis) as ``{title}``."""
    head = title[:CUT_TITLE_MIN_CHARS]
    if len(title) < CUT_TITLE_MIN_CHARS or head not in value:
        return value
    body = _ELLIPSIS.sub("", value)
    at = body.find(head)
    while at >= 0:
        rest = body[at:]
        if (len(rest) < len(title) and title.startswith(rest) and 2 * len(rest) >= len(title)
                and (at == 0 or not body[at - 1].isalnum())):
            return body[:at] + "{title}"
        at = body.find(head, at + 1)
    return value


def _norm(text: str | None) -> str:
    return " ".join(text.split()) if text else ""


# Where a link or a form goes. (Images keep their address: a job's own picture is not the site's logo.)
LINK_ATTRIBUTES = frozenset({"href", "action", "formaction"})


# A phone or messenger link that reaches a person ("tel:", "tg://resolve?domain=", "whatsapp://send?phone="): a
# contact, like a mail link. One that shares the page with a text or an address is a share button.
CONTACT_APP_LINK = re.compile(r"^(?:tel|sms|tg|whatsapp|viber|skype):(?!//(?:msg|share))(?!.*[?&](?:text|url)=)",
                              re.I)


def link_target(value: str) -> str:
    """Where a link goes, as far as a template cares: its host and first path segment. A language switcher, a
    share or login link, a "current job" breadcrumb go to a different page from every page, but to the same
    place (``example.com/pt-br/…``, ``twitter.com/intent…``). Mail, phone and messenger links stay whole: they are
    contacts; but a mail link to nobody ("mailto:?subject=<this job>&body=<its address>") shares the page by e-mail."""
    value = value.strip()
    if value.lower().startswith("mailto:?"):
        return "mailto:"
    if value.lower().startswith("mailto:") or CONTACT_APP_LINK.match(value):
        return value
    try:
        parts = urlsplit(value)
    except ValueError:  # a malformed link (``http://[x``) is compared as written
        return value
    first = parts.path.lstrip("/").split("/", 1)[0]
    return f"{parts.scheme}://{parts.netloc}/{first}" if parts.netloc or parts.scheme else f"/{first}"


def destinations(element) -> frozenset:
    """Where the region's links lead a reader out of the site's pages: the mail, phone and messenger addresses
    they write to and the hosts of the absolute web links."""
    found = set()
    for el in element.iter("a"):
        href = (el.get("href") or "").strip()
        lowered = href.lower()
        if lowered.startswith("mailto:") and not lowered.startswith("mailto:?") or CONTACT_APP_LINK.match(href):
            found.add(lowered)
        elif lowered.startswith(("http://", "https://", "//")):
            try:
                found.add(urlsplit(href if not href.startswith("//") else "https:" + href).netloc.lower())
            except ValueError:
                found.add(lowered)
    return frozenset(found)


def stable_attributes(el, refs: SelfReferences) -> list[tuple[str, str]]:
    """The attributes that enter a signature, self-references replaced, link targets reduced, sorted."""
    hidden_input = el.tag == "input" and (el.get("type") or "").lower() == "hidden"
    return sorted((k, link_target(v) if k in LINK_ATTRIBUTES else refs.attribute(_norm(v)))
                  for k, v in el.attrib.items()
                  if not volatile_attribute(k) and not (hidden_input and k == "value"))


# Tabs compared per list, a bound on hostile pages (a real tab list has a handful).
MAX_TABS = 24
TAB_LIST_SIGNATURE = hashlib.sha256(b"v2 in-page tab list").hexdigest()


def in_page_tab_list(element) -> bool:
    """A tab list (``role="tablist"``) whose every tab (``role="tab"``) shows a panel of this same page (its
    ``aria-controls`` or ``#fragment`` names an element of the page) and whose text is only its tabs' labels: a
    control, like a form's buttons. Its labels change with the job's sections, its panels hold the job's text."""
    if not isinstance(element.tag, str) or (element.get("role") or "").strip().lower() != "tablist":
        return False
    tabs = [el for el in element.iterdescendants() if isinstance(el.tag, str)
            and (el.get("role") or "").strip().lower() == "tab"]
    if not tabs or len(tabs) > MAX_TABS:
        return False
    root = element.getroottree().getroot()
    for tab in tabs:
        # Preparation makes links absolute, so an in-page tab's href is this page's URL with a fragment.
        href = (tab.get("href") or "").strip()
        target = (tab.get("aria-controls") or "").strip() or href.partition("#")[2]
        if not target or href and "#" not in href:
            return False  # a tab that opens another page is a menu link, judged as one
        if not root.xpath("//*[@id=$id]", id=target):
            return False
    labels = "".join("".join(tab.text_content().split()) for tab in tabs)
    return "".join(element.text_content().split()) == labels


SIBLING_POSTINGS_MIN_ITEMS = 3
SIBLING_POSTINGS_MAX_OUTSIDE_WORDS = 4
# The heading over such a list ("Other jobs you might like", "Các tin tuyển dụng khác") is short.
LIST_HEADING_MAX_WORDS = 6
SIBLING_POSTINGS_SIGNATURE = hashlib.sha256(b"v2 a list of the site's other postings").hexdigest()


_LIST_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def sibling_postings_list(element, refs: SelfReferences) -> bool:
    """A list of the site's other postings ("Similar jobs", "More openings"): three or more children of one tag,
    each linking only to pages in the folder of the page's own address and never to the page itself, with no
    more than a label's words outside them. Its items differ on every page (other jobs, other dates), so it has
    one signature whatever they say: learned as one region, and what it states is other jobs' facts."""
    if not refs.folder or element.tag in ("html", "body"):
        return False
    items = [child for child in element if isinstance(child.tag, str)]
    if postings_pager(items, refs):
        return True
    if (len(items) == 2 and items[0].tag in _LIST_HEADINGS and not (element.text or "").strip()
            and len(items[0].text_content().split()) <= LIST_HEADING_MAX_WORDS
            and sibling_postings_list(_only_child_within(items[1]), refs)):
        return True  # the list under its heading ("Other openings:"): the heading names the list
    if len(items) < SIBLING_POSTINGS_MIN_ITEMS or len({item.tag for item in items}) != 1:
        return False
    for item in items:
        hrefs = [a.get("href") for a in item.iter("a") if a.get("href") and not MAP_LINK.search(a.get("href"))]
        if not hrefs or any(link_folder(href) != refs.folder or refs.attribute(href).startswith("{url}")
                            for href in hrefs):
            return False
    outside = [element.text or ""] + [item.tail or "" for item in items]
    return len(" ".join(outside).split()) <= SIBLING_POSTINGS_MAX_OUTSIDE_WORDS


LIST_WRAPPER_DEPTH = 4


def _only_child_within(element):
    """The element a chain of wrappers holds and nothing else ("<div><div class=tiles>ITEMS</div></div>"): the
    list a layout wraps is the list (bounded: at most LIST_WRAPPER_DEPTH wrappers are looked through)."""
    for _ in range(LIST_WRAPPER_DEPTH):
        children = [child for child in element if isinstance(child.tag, str)]
        if len(children) != 1 or (element.text or "").strip() or (children[0].tail or "").strip() \
                or children[0].tag == "a":
            break
        element = children[0]
    return element


# A pager's link to the posting before or after this one: its rel, its class, or an arrow at its text's edge.
_PAGER_CLASS = re.compile(r"(?:^|[-_\s])(?:prev|previous|next|older|newer)(?:$|[-_\s])", re.I)
_PAGER_ARROWS = "«»‹›←→<>"
PAGER_MAX_LINKS = 2


def postings_pager(items: list, refs: SelfReferences) -> bool:
    """The links to the posting before and after this one ("« Previous: Welder", "Next: Painter »"): one or two
    children, each a link (or holding one) to another page in the folder of the page's own address, each marked as
    a pager's (GE). Their words are the other postings' titles, so no two pages show the same pager. An item may
    hold a label beside its link ("<div>Next</div><a rel=next>Painter</a>")."""
    levels = [items]
    while len(items) == 1 and items[0].tag != "a" and not (items[0].text or "").strip() and len(items[0]):
        items = [child for child in items[0] if isinstance(child.tag, str)]  # a wrapper holding only the pager
        levels.append(items)
    return any(_pager_items(level, refs) for level in reversed(levels))


def _pager_items(items: list, refs: SelfReferences) -> bool:
    if not 1 <= len(items) <= PAGER_MAX_LINKS:
        return False
    for item in items:
        links = [item] if item.tag == "a" else list(item.iter("a"))
        if len(links) != 1:
            return False
        link = links[0]
        href = link.get("href") or ""
        if not href or link_folder(href) != refs.folder or refs.attribute(href).startswith("{url}"):
            return False
        text = " ".join(link.text_content().split())
        marked = ("prev" in (link.get("rel") or "").lower() or "next" in (link.get("rel") or "").lower()
                  or any(_PAGER_CLASS.search(node.get("class") or "") for node in (link, item))
                  or text[:1] in _PAGER_ARROWS or text[-1:] in _PAGER_ARROWS)
        if not marked:
            return False
    return True


def sibling_postings_lists(root, refs: SelfReferences) -> list:
    """The outermost lists of the site's other postings on a page (``sibling_postings_list``), wherever they stand:
    inside the job's own container too, where no header, footer or aside names them."""
    if not refs.folder:
        return []
    found = []
    walker = etree.iterwalk(root, events=("start",))
    for _event, el in walker:
        if isinstance(el.tag, str) and sibling_postings_list(el, refs):
            found.append(el)
            walker.skip_subtree()
    return found


def region_signature(element, refs: SelfReferences | None = None) -> str:
    """sha256 over the region's tag structure, stable attributes and text, self-references normalised (version 2).

    ``refs``: the page's self-references (``SelfReferences.of_page``); without them only digits, state and
    per-build attributes are normalised. An in-page tab list has one signature whatever its labels (a control)."""
    refs = refs or NO_REFERENCES
    if in_page_tab_list(element):
        return TAB_LIST_SIGNATURE
    if sibling_postings_list(element, refs):
        return SIBLING_POSTINGS_SIGNATURE
    digest = hashlib.sha256(b"v2")
    for event, el in etree.iterwalk(element, events=("start", "end")):
        if not isinstance(el.tag, str):
            continue
        if event == "start":
            digest.update(f"<{el.tag}{stable_attributes(el, refs)}>".encode())
            if el.text and el.text.strip():
                digest.update(refs.text(_norm(el.text)).encode())
        else:
            digest.update(f"</{el.tag}>".encode())
            if el is not element and el.tail and el.tail.strip():
                digest.update(refs.text(_norm(el.tail)).encode())
    return digest.hexdigest()


def region_signature_v1(element) -> str:
    """The version 1 signature (filters stored before version 2): text and attributes verbatim."""
    digest = hashlib.sha256()
    for event, el in etree.iterwalk(element, events=("start", "end")):
        if not isinstance(el.tag, str):
            continue
        if event == "start":
            attrs = sorted((k, " ".join(v.split())) for k, v in el.attrib.items() if k not in VOLATILE_ATTRIBUTES)
            digest.update(f"<{el.tag}{attrs}>".encode())
            if el.text and el.text.strip():
                digest.update(" ".join(el.text.split()).encode())
        else:
            digest.update(f"</{el.tag}>".encode())
            if el is not element and el.tail and el.tail.strip():
                digest.update(" ".join(el.tail.split()).encode())
    return digest.hexdigest()


def signature_for(version: int):
    """The signature function a filter of ``version`` was learned with: ``fn(element, refs)``."""
    if version >= SIGNATURE_VERSION:
        return region_signature
    return lambda element, refs=None: region_signature_v1(element)


# --- bounded per-page variation ------------------------------------------------------------------------------
# A template region is not always identical: a menu gains an item, the current item is plain text instead of a
# link, an older page carries an older footer, a breadcrumb names the page. A region found where a rule looks,
# whose signature differs, is still the learned region when every line of its text is a line (or made of the
# words) of the learned region, which the review judged to hold no job fact, except a few lines that are only
# link text (menu items) and state nothing a job fact needs (digits, amounts, mail or phone links, apply words).
BLOCK_TAGS = frozenset({"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "table",
                        "section", "article", "header", "footer", "nav", "aside", "main", "br", "dd", "dt", "dl",
                        "form", "button", "a", "label", "option", "blockquote", "figure", "figcaption", "address",
                        "center", "details", "summary", "select", "fieldset", "legend", "hr", "img"})
# What a new line may not say: digits (normalised to 0), an amount, an e-mail address, an apply word.
_FACT_CHARS = re.compile(r"0|@|[$€£¥₩]|\b(apply|appl(y|ication)|bewerb|postul|candidat|solliciteer|hae\b)", re.I)
VARIATION_SHARE = 0.3  # at most this share of a varied region's characters may be new link lines
VARIATION_MAX_CHARS = 400
MAX_LEARNED_LINES = 300  # a region with more lines than this is matched by its signature only
MAX_LEARNED_CHARS = 12000


def region_lines(element, refs: SelfReferences | None = None) -> list[tuple[str, bool]]:
    """The region's visible text lines as compared between pages: self-references and digits normalised, lower
    case; each with whether it is link text only (a mail or phone link is not: it is a contact)."""
    refs = refs or NO_REFERENCES
    lines: list[tuple[str, bool]] = []
    parts: list[str] = []
    plain = [0]  # characters of the current line outside ordinary links
    links: list = []  # the link elements open around the current position

    def flush() -> None:
        text = refs.text(_norm("".join(parts))).lower()
        if text:
            lines.append((text, plain[0] <= 3))  # separators ("|", "·") beside menu links
        parts.clear()
        plain[0] = 0

    def add(text: str | None) -> None:
        if text and text.strip():
            parts.append(text + " ")
            if not links or any(a.get("href", "").strip().lower().startswith(("mailto:", "tel:")) for a in links):
                plain[0] += len("".join(text.split()))

    for event, el in etree.iterwalk(element, events=("start", "end")):
        if not isinstance(el.tag, str):
            continue
        if event == "start":
            if el.tag in BLOCK_TAGS:
                flush()
            if el.tag == "a":
                links.append(el)
            add(el.text)
        else:
            if el.tag == "a" and links:
                links.pop()
            if el.tag in BLOCK_TAGS:
                flush()
            if el is not element:
                add(el.tail)
    flush()
    return lines


def learned_lines(element, refs: SelfReferences | None = None) -> list[tuple[str, bool]]:
    """What a rule stores of its region to recognise it with bounded variation; [] when too large."""
    lines = list(dict.fromkeys(region_lines(element, refs)))
    if len(lines) > MAX_LEARNED_LINES or sum(len(text) for text, _linked in lines) > MAX_LEARNED_CHARS:
        return []
    return lines


def within_variation(lines: list[tuple[str, bool]], learned) -> bool:
    """Whether a region's ``lines`` (``region_lines``) are the learned region's with bounded variation.

    Every line must be a learned line, or made of the words of one learned line (a link's words for a link line,
    a text line's words for a text line: "© Acme" beside a learned "Acme © Privacy | Terms"; a place name from a
    menu of links is not a new text line's), except new link-only lines stating no fact (a menu item), which may
    make up at most VARIATION_SHARE of the text and VARIATION_MAX_CHARS. Lines missing from the region are fine:
    less of the same template states nothing new. A region without text is matched by its signature only."""
    if not learned or len(lines) > 2 * len(learned) + 20:
        return False  # nothing to compare with, or far more than was learned: not the same region (and bounded)
    texts = {text for text, _linked in learned}
    word_sets = [(set(text.split()), bool(linked)) for text, linked in learned]
    known = new = 0
    for text, linked in lines:
        words = set(text.split())
        if text in texts or any(words <= learned_words and (linked or not learned_linked)
                                for learned_words, learned_linked in word_sets):
            known += len(text)
        elif linked and not _FACT_CHARS.search(text):
            new += len(text)
        else:
            return False
    total = known + new
    return known > 0 and new <= VARIATION_SHARE * total and new <= VARIATION_MAX_CHARS
