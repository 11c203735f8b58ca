"""What the classifier is told about a region (its text, fact text, links, form controls, where it sits) and the
review call itself: all or nothing, retried when a batch fails."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree
from lxml import html as lxml_html

from gigflow.noise.learn.candidates import in_site_footer
from gigflow.noise.learn.directory import directory_entries
from gigflow.noise.learn.template import CONTACT_HREF, in_site_landmark, job_section_above, mostly_links
from gigflow.noise.learn.classifier import BatchError, RegionClassifier, RegionVerdict, ReviewRegion, names_legal_entity
from gigflow.noise.learn.in_page import in_page_targets, sibling_page_targets
from gigflow.noise.learn.page_title import stated_title
from gigflow.noise.model import RemovalRule, SampleRef
from gigflow.noise.signature import MAP_LINK
from gigflow.noise.learn.settings import NoiseSettings


CONTROL_TAGS = ("input", "select", "textarea", "button")
# What a form control says to a reader, for the classifier: its label, placeholder, name or button text.
CONTROL_WORDS = ("aria-label", "placeholder", "title", "name", "value", "alt")


class NoiseLearningError(RuntimeError):
    """Learning could not complete; nothing partial is returned."""


@dataclass
class SkippedRegion:
    selector: str
    reason: str


@dataclass
class LearningReport:
    samples: list[SampleRef] = field(default_factory=list)
    candidates: int = 0  # outer candidate regions across all samples
    learnable: int = 0  # distinct learnable regions (by selector and signature)
    examined: int = 0  # regions looked at (candidates and parts), at most NOISE_MAX_REGIONS
    skipped: list[SkippedRegion] = field(default_factory=list)
    regions_sent: int = 0
    model_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 0
    failures: list[str] = field(default_factory=list)
    decisions: list[RemovalRule] = field(default_factory=list)  # every decision made in this review
    reused: list[RemovalRule] = field(default_factory=list)
    not_reused: list[SkippedRegion] = field(default_factory=list)
    classifier: str = ""
    facts_before: tuple[int, int] = (0, 0)  # (kept, total) job-fact snippets on the samples, without the filter
    facts_after: tuple[int, int] = (0, 0)

    @property
    def learned(self) -> list[RemovalRule]:
        return [r for r in self.decisions if r.decision == "remove"]


def _label(region) -> str:
    label = region.get("aria-label") or ""
    ids = (region.get("aria-labelledby") or "").split()
    if ids:
        root = region.getroottree()
        texts = [el.text_content() for i in ids for el in root.xpath("//*[@id=$i]", i=i)]
        label = " ".join([label] + texts)
    return " ".join(label.split())


def review_region(region_id, selector, signature, region, settings: NoiseSettings,
                  page_url: str | None = None, titles: tuple = ()) -> ReviewRegion:
    links = tuple((" ".join(a.text_content().split()) or a.get("aria-label") or a.get("title") or "", a.get("href"))
                  for a in region.iter("a") if a.get("href"))
    markup = lxml_html.tostring(region, encoding="unicode")
    other_pages = other_pages_parts(region)  # read once for the region's text and its images
    return ReviewRegion(id=region_id, selector=selector, signature=signature, tag=region.tag,
                        text=" ".join(region.text_content().split()), links=links,
                        html=markup[: settings.max_region_sent_chars], label=_label(region),
                        fact_text=fact_text(region, other_pages), image_alts=image_alts(region, other_pages),
                        controls=form_controls(region),
                        site_footer=in_site_footer(region) is not None, postal_address=in_postal_address(region),
                        in_page_links=in_page_targets(region, page_url),
                        posting_links=sibling_page_targets(region, page_url),
                        page_title=stated_title(region, titles), section_heading=job_section_above(region),
                        time_stamp=time_stamp(region), directory_entries=directory_entries(region),
                        beside_map_link=map_link_beside(region))


MAP_NEIGHBOUR_DEPTH = 3  # how far up a line of an office may sit in the block beside the map link
MAP_NEIGHBOURS = 12  # an office's block holds a few parts beside its map link, not a page's worth (bounded)


def map_link_beside(region) -> str:
    """The words of the links to a map that are all the parent of the region, or of a block it is a line of,
    holds beside it ("View map" after an office's lines), or '': the region is (part of) the place they point to.
    Not where the block holds links of its own or its neighbours say anything else."""
    node = region
    for _ in range(MAP_NEIGHBOUR_DEPTH):
        parent = node.getparent()
        if parent is None or any(a.get("href") for a in node.iter("a")):
            return ""
        said = _lone_map_links(parent, node)
        if said:
            return said
        node = parent
    return ""


def _lone_map_links(parent, node) -> str:
    """The words of the map links that are all ``parent`` holds besides ``node``, or ''."""
    said = []
    if len(parent) > MAP_NEIGHBOURS:
        return ""
    for sibling in parent.iterchildren(etree.Element):
        if sibling is node:
            continue
        maps = [a for a in sibling.iter("a") if MAP_LINK.search(a.get("href") or "")]
        words = [" ".join(a.text_content().split()) for a in maps]
        if " ".join(sibling.text_content().split()) != " ".join(words):
            return ""  # a neighbour says something besides its links to a map
        said += [w or "map" for w in words]
    loose = (parent.text or "") + "".join(child.tail or "" for child in parent.iterchildren())
    return " · ".join(said) if said and not loose.strip() else ""


def time_stamp(region) -> str:
    """The machine-readable date of the region's <time datetime> elements where they name one day (a posting's
    "published" and "updated" side by side), outside the site's menus ("latest posts: Dec 17, Dec 21" in a nav)."""
    stamps = [(t.get("datetime") or "").strip() for t in region.iter("time")]
    days = {stamp[:10] for stamp in stamps if stamp}
    if len(days) != 1 or region.tag in ("nav", "header", "footer") or in_site_landmark(region):
        return ""
    return next(stamp for stamp in stamps if stamp)


def form_controls(region) -> tuple[str, ...]:
    """The region's form controls as a reader meets them: 'button: Accept all', 'input search: Search jobs'.
    A form's words are text a classifier can judge (a cookie banner, a search box, a newsletter sign-up)."""
    found = []
    labels = {lab.get("for"): " ".join(lab.text_content().split()) for lab in region.iter("label") if lab.get("for")}
    for el in region.iter(*CONTROL_TAGS, "form"):
        kind = el.tag if el.tag != "input" else f"input {(el.get('type') or 'text').lower()}"
        if kind == "input hidden":
            continue
        words = [labels.get(el.get("id"), "")] + [el.get(a) or "" for a in CONTROL_WORDS]
        if el.tag in ("button", "select"):
            words.append(el.text_content())
        if el.tag == "form":
            words = [el.get("aria-label") or "", el.get("name") or ""]
        said = " · ".join(dict.fromkeys(" ".join(w.split()) for w in words if w and w.strip()))
        found.append(f"{kind}: {said}" if said else kind)
        if len(found) >= 20:
            break
    return tuple(found)


def in_postal_address(region) -> bool:
    """Whether the region is, holds or sits in an <address> element: contact information by its markup."""
    return any(node.tag == "address" for node in (*region.iter(etree.Element), *region.iterancestors()))


LINK_LIST_MIN_ITEMS = 3
# A form's choices and buttons offer answers ("temporary", "full-time" in a select); they state no fact.
FORM_CHOICES = frozenset({"select", "option", "optgroup", "datalist", "button", "textarea"})
INLINE_TAGS = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
                         "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "img"})


def _one_line(text: str | None) -> str:
    return " ".join(text.split()) + " " if text and text.strip() else ""


_WORD = re.compile(r"[^\W\d_]{2,}")


def _words_between(items) -> bool:
    """Whether words stand between the sibling ``items`` (links inside a sentence: "Code licensed under <a>MIT</a>.
    Docs under <a>Apache 2</a> | © 2016 <a>Acme Co</a>"), not only separators (a menu: "<a>Home</a> | <a>Jobs</a>")."""
    return any(item.tail and _WORD.search(item.tail) for item in items[:-1])


_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)


def _hidden_form_part(el) -> bool:
    """A part of a form hidden from the reader (a spam trap: "Do not fill in this field:"): it states nothing."""
    hidden = el.get("hidden") is not None or _HIDDEN_STYLE.search(el.get("style") or "") or (
        el.get("aria-hidden") or "").strip().lower() == "true"
    return bool(hidden) and any(node.tag == "form" for node in el.iterancestors())


def fact_text(region, other_pages: set | None = None) -> str:
    """The region's text that can state this job's facts, one line per block: without link lists (three or more
    sibling items of one tag that each hold a link: menus, cards of other jobs, category lists) and without
    anything inside an ARIA feed (a list of other articles). Their words name other pages, not this job.
    ``other_pages``: the region's ``other_pages_parts``, where already read."""
    skipped = other_pages_parts(region) if other_pages is None else other_pages
    if region in skipped:
        return ""
    parts = []
    walker = etree.iterwalk(region, events=("start", "end"))
    for event, el in walker:
        if not isinstance(el.tag, str):
            continue
        block = el.tag not in INLINE_TAGS
        if event == "start":
            if block:
                parts.append("\n")
            if el in skipped:
                walker.skip_subtree()  # its end event still comes, with its tail
                continue
            parts.append(_one_line(el.text))
        else:
            if block:
                parts.append("\n")
            if el is not region:
                parts.append(_one_line(el.tail))
    lines = (" ".join(line.split()) for line in "".join(parts).split("\n"))
    return "\n".join(line for line in lines if line)


def other_pages_parts(region) -> set:
    """The parts of the region that speak of other pages (see ``fact_text``): the region itself when it sits in
    an ARIA feed."""
    if any((el.get("role") or "").strip().lower() == "feed" for el in (region, *region.iterancestors())):
        return {region}
    skipped = set()
    for el in region.iter(etree.Element):
        if (el.get("role") or "").strip().lower() == "feed" or el.tag in FORM_CHOICES or _hidden_form_part(el):
            skipped.add(el)
        groups: dict = {}
        for child in el:
            if isinstance(child.tag, str):
                groups.setdefault(child.tag, []).append(child)
        for items in groups.values():
            # Icon links without words (a logo's, a GitHub mark's) make no menu of a header's one named link.
            worded = sum(1 for item in items if item.text_content().strip())
            if worded >= LINK_LIST_MIN_ITEMS and all(
                    item.tag == "a" or item.find(".//a") is not None for item in items) and not _words_between(items):
                # An item whose own words outweigh its links (a footer column with the office address beside
                # its mailto link) states something itself: it stays. So does the one item of a menu naming a
                # company by its legal form ("Acme by Rosoco BV" beside "Terms" and "Privacy"): the site's legal
                # entity, the employer on a company's own site. Several such items are a list of clients or
                # partners; a list with an office's links (to a map, a phone, a mailbox) is read as that office.
                office = any(CONTACT_HREF.match(a.get("href") or "") or MAP_LINK.search(a.get("href") or "")
                             for item in items for a in item.iter("a"))
                legal = [] if office else [item for item in items
                                           if names_legal_entity(" ".join(item.text_content().split()))]
                skipped.update(item for item in items if mostly_links(item) and (len(legal) != 1 or item is not legal[0]))
    return skipped


MAX_IMAGE_ALTS = 20


def image_alts(region, other_pages: set | None = None) -> tuple[str, ...]:
    """The alt texts of the region's images outside its parts about other pages (a logo names the site's owner; a
    card's image in a list of other jobs names that job). Only parts with words of their own count as about other
    pages here: a header's row of logo, mobile logo and menu is a list of links too. ``other_pages``: as for
    ``fact_text``."""
    parts = other_pages_parts(region) if other_pages is None else other_pages
    if region in parts:
        return ()
    skipped = {el for el in parts if el.text_content().strip()}
    alts = []
    walker = etree.iterwalk(region, events=("start",))
    for _event, el in walker:
        if el in skipped:
            walker.skip_subtree()
        elif el.tag == "img" and (el.get("alt") or "").strip():
            alts.append(" ".join(el.get("alt").split())[:200])
            if len(alts) >= MAX_IMAGE_ALTS:
                break
    return tuple(alts)


def review_regions(classifier: RegionClassifier, regions: list[ReviewRegion], settings: NoiseSettings,
            report: LearningReport) -> dict[str, RegionVerdict]:
    """The whole review, retried when any batch fails; nothing partial survives a failure."""
    report.regions_sent += len(regions)
    try:
        if not regions:
            return {}
        for attempt in range(1, settings.retries + 2):
            report.attempts = attempt
            try:
                return classifier.review(regions)
            except BatchError as exc:
                report.failures.append(f"attempt {attempt}: {exc}")
        raise NoiseLearningError(f"noise review failed after {settings.retries + 1} attempts: {report.failures[-1]}")
    finally:
        report.model_calls = classifier.usage.calls
        report.prompt_tokens = classifier.usage.prompt_tokens
        report.completion_tokens = classifier.usage.completion_tokens
