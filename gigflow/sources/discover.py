"""Propose a source for a career page from one fetched body (pure: no network, no database).

`propose_source(body, url)` first looks for the ATS behind the page (gigflow.adapters.ats.recognise): a supported
board becomes an `ats` strategy, a named but unsupported one (iCIMS, Avature, ...) an `href` strategy on its hosted
board. Without one it infers an `href` strategy from the page's repeated job cards (a card selector and a job-URL
pattern), and failing that proposes the site's sitemaps (robots.txt) and says why. Every proposal says how sure it
is and which links showed it; it is validated as a SourceConfig before it is printed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from urllib.parse import urljoin, urlsplit

from lxml import etree
from lxml import html as lxml_html

from gigflow.adapters.ats.recognise import Finding, recognise_page
from gigflow.adapters.feed import FeedAdapter
from gigflow.politeness.keys import registrable_domain
from gigflow.sources.job_paths import JOB_WORDS
from gigflow.sources.config import SourceConfig

# The least confidence at which a recognised ATS board is proposed rather than the page's own links.
MIN_ATS_CONFIDENCE = 0.5
MIN_CARDS = 2
CHROME = ("header", "nav", "footer", "aside")
# Hosted boards of providers gigflow names but does not read through the ATS strategy: where their listing is,
# and what their job links look like (for an href strategy on that board).
HOSTED_BOARDS = {
    "icims": (lambda board: f"https://{board}.icims.com/jobs/search?ss=1", [r"\.icims\.com/jobs/\d+/"]),
    "avature": (lambda board: f"https://{board}/SearchJobs" if "/" in board else f"https://{board}.avature.net/careers/SearchJobs",
                [r"/JobDetail/"]),
    "taleo": (lambda board: "https://{}.taleo.net/careersection/{}/jobsearch.ftl".format(*board.split("/", 1)),
              [r"jobdetail\.ftl\?job="]),
}


@dataclass
class Proposal:
    source: dict
    strategy: str
    confidence: float
    reasons: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def source_id_for(url: str) -> str:
    host = (urlsplit(url).hostname or "site").lower()
    host = re.sub(r"^(?:www|jobs|careers|career|karriere)\.", "", host)
    return re.sub(r"[^a-z0-9]+", "-", host).strip("-")[:100] or "site"


def propose_source(body: bytes, url: str, *, company: str | None = None, source_id: str | None = None) -> Proposal:
    proposal = _feed_or_sitemap(body, url, {"id": source_id or source_id_for(url),
                                            "company": company or source_id_for(url), "canonical_url": url,
                                            "status": "candidate"})
    if proposal is not None:
        return _validated(proposal)
    findings = recognise_page(body, url)
    base = {"id": source_id or source_id_for(url), "company": company or _page_company(body) or source_id_for(url),
            "canonical_url": url, "status": "candidate"}
    best = findings[0] if findings else None
    if best is not None and best.confidence >= MIN_ATS_CONFIDENCE:
        if best.supported:
            strategy = {"type": "ats", "provider": best.provider, "board_id": best.board}
            if best.region != "us":
                strategy["region"] = best.region
            reasons = [f"the page points to the {best.provider} board {best.board!r} "
                       f"({len(best.evidence)} link(s) shown, {best.job_links} job link(s)); its public API is the "
                       "cleanest source"]
            return _validated(Proposal({**base, "strategies": [strategy]}, "ats", best.confidence, reasons,
                                       best.evidence, findings))
        if best.provider in HOSTED_BOARDS:
            listing, patterns = HOSTED_BOARDS[best.provider]
            on_board = urlsplit(url).hostname and best.board.split("/")[0].split(".")[0] in (urlsplit(url).hostname or "")
            inferred = infer_href(body, url) if on_board else None
            strategy = inferred[0] if inferred else {"type": "href", "listing_urls": [listing(best.board)],
                                                     "job_url_patterns": patterns}
            reasons = [f"the page is on or points to a {best.provider} board ({best.board}); gigflow reads "
                       f"{best.provider} boards as HTML: an href strategy on its listing"]
            if inferred:
                reasons += inferred[1]
            return _validated(Proposal({**base, "strategies": [strategy]}, "href", round(best.confidence * 0.9, 2),
                                       reasons, best.evidence, findings))
    inferred = infer_href(body, url)
    reasons = []
    if best is not None:
        reasons.append(f"ATS links were weak ({best.provider} {best.board!r}, confidence {best.confidence}): "
                       "not proposed")
    if inferred:
        strategy, why, confidence, evidence = inferred
        return _validated(Proposal({**base, "strategies": [strategy]}, "href", confidence, reasons + why, evidence,
                                   findings))
    root = _parse(body)
    announced = _job_feeds(root, url) if root is not None else []
    if announced:
        reasons.append(f"no repeated job links on the page, but it announces {len(announced)} job feed(s) "
                       f"(<link rel=alternate>): {', '.join(announced[:3])}")
        return _validated(Proposal({**base, "strategies": [{"type": "feed", "feed_urls": announced[:5],
                                                              "follow_links": True}]},
                                   "feed", 0.5, reasons, announced[:5], findings))
    scripts = len(root.findall(".//script")) if root is not None else 0
    links = len(root.findall(".//a")) if root is not None else 0
    parts = urlsplit(url)
    strategy = {"type": "sitemap", "sitemap_urls": [], "use_robots": True}
    reasons.append(f"no repeated job links on the page ({links} links): the site's sitemaps (announced by "
                   f"{parts.scheme}://{parts.netloc}/robots.txt) may list its job pages; add job_url_patterns once "
                   "you know their paths")
    if scripts >= 5 and links < 20:
        reasons.append(f"the page runs {scripts} scripts and shows few links: if its jobs appear only in the "
                       "browser, a click strategy needs an item and a detail selector chosen by hand")
    return _validated(Proposal({**base, "strategies": [strategy]}, "sitemap", 0.2, reasons, [], findings))


_SITEMAP_ROOT = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:[\w-]+:)?(?:urlset|sitemapindex)\b",
                           re.I | re.S)
FEED_TYPES = ("application/rss+xml", "application/atom+xml")


def _feed_or_sitemap(body: bytes, url: str, base: dict) -> Proposal | None:
    """The URL is itself a feed (read as a crawl reads it, gigflow.adapters.feed) or a sitemap: that strategy over
    it; else None. A feed whose entries link to pages of its own site (the feed spider's rule: the same
    registrable domain) follows them: the pages hold the whole vacancy, an entry often only its teaser."""
    feed = FeedAdapter()
    if feed.supports(url, body):
        links = [job.url for job in feed.extract(body, url=url).jobs if job.url]
        domain = registrable_domain(url)
        own = [link for link in links if registrable_domain(link) == domain]
        follow = bool(links) and len(own) * 2 > len(links)
        reasons = [f"the URL is a job feed with {len(links)} entr{'y' if len(links) == 1 else 'ies'} linking to a "
                   f"page" + (f", {len(own)} on its own site: they are followed" if follow else "")]
        return Proposal({**base, "strategies": [{"type": "feed", "feed_urls": [url], "follow_links": follow}]},
                        "feed", 0.8 if links else 0.4, reasons, own[:5])
    if _SITEMAP_ROOT.match((body or b"")[:2048].removeprefix(b"\xef\xbb\xbf")):
        return Proposal({**base, "strategies": [{"type": "sitemap", "sitemap_urls": [url]}]}, "sitemap", 0.6,
                        ["the URL is a sitemap: its job pages are read from it; add job_url_patterns once you "
                         "know their paths"], [url])
    return None


def _job_feeds(root, url: str) -> list[str]:
    """Feeds the page announces (``<link rel="alternate" type="application/rss+xml">``) whose address or title
    names jobs: a careers page's own feed, not the blog's."""
    found = []
    for link in root.iter("link"):
        rel = (link.get("rel") or "").lower().split()
        kind = (link.get("type") or "").split(";")[0].strip().lower()
        href = (link.get("href") or "").strip()
        if "alternate" not in rel or kind not in FEED_TYPES or not href:
            continue
        try:
            absolute = urljoin(url, href)
            path = urlsplit(absolute).path
        except ValueError:  # a malformed address (an unclosed IPv6 bracket) announces nothing
            continue
        title = "/" + "/".join((link.get("title") or "").split()) + "/"
        if absolute.startswith(("http://", "https://")) and (JOB_WORDS.search(path) or JOB_WORDS.search(title)):
            found.append(absolute)
    return list(dict.fromkeys(found))


def _validated(proposal: Proposal) -> Proposal:
    """The proposal as a valid SourceConfig (a proposal that would not import is worse than none)."""
    config = SourceConfig.model_validate(proposal.source)
    dumped = config.model_dump(mode="json", exclude_defaults=True)
    dumped["strategies"] = [{"type": strategy.type, **dumped_strategy}
                            for strategy, dumped_strategy in zip(config.strategies, dumped["strategies"])]
    proposal.source = {**dumped, "status": "candidate"}
    return proposal


def _parse(body: bytes):
    try:
        return lxml_html.document_fromstring(body or b"<html/>",
                                             parser=lxml_html.HTMLParser(recover=True, remove_comments=True))
    except (etree.ParserError, ValueError):
        return None


def _page_company(body: bytes) -> str | None:
    root = _parse(body)
    if root is None:
        return None
    site = root.xpath("string(//meta[@property='og:site_name']/@content)").strip()
    if site:
        return site[:200]
    title = " ".join((root.findtext(".//title") or "").split())
    match = re.search(r"(?:careers|jobs|vacancies|work)\s+at\s+(.+?)(?:\s+[|–-].*)?$", title, re.I)
    return match.group(1)[:200] if match else None


def _in_chrome(element) -> bool:
    return any(ancestor.tag in CHROME for ancestor in element.iterancestors())


def _card(anchor, href_of) -> etree._Element:
    """The largest ancestor of an anchor whose links all go to the anchor's URL: the job's card."""
    card, target = anchor, href_of(anchor)
    for ancestor in anchor.iterancestors():
        if ancestor.tag in ("body", "html", "main", "ul", "ol", "table", "tbody", "section"):
            break
        links = {href_of(a) for a in ancestor.iter("a") if href_of(a)}
        if links - {target}:
            break
        card = ancestor
    return card


def _selector(card) -> str:
    classes = [c for c in (card.get("class") or "").split() if re.fullmatch(r"[A-Za-z_][\w-]*", c)]
    if classes:
        return f"{card.tag}.{classes[0]}"
    parent = card.getparent()
    parent_classes = [c for c in (parent.get("class") or "").split() if re.fullmatch(r"[A-Za-z_][\w-]*", c)] \
        if parent is not None else []
    if parent is not None and parent_classes:
        return f"{parent.tag}.{parent_classes[0]} > {card.tag}"
    if parent is not None and parent.get("id") and re.fullmatch(r"[A-Za-z_][\w-]*", parent.get("id")):
        return f"#{parent.get('id')} > {card.tag}"
    return card.tag


_VARIABLE = re.compile(r"\d|[-_~%]|^.{25,}$")


ANY_SEGMENT = r"[^/?#]+"


def path_shape(path: str) -> tuple[tuple[str, ...], bool] | None:
    """The shape of a job path, as regex segments: numeric segments become \\d+, slug-like ones (digits, dashes,
    long) any segment, the rest stay literal; and whether it ends in a slash. None when nothing varies (a menu
    link, not one of many jobs)."""
    segments = [segment for segment in path.split("/") if segment]
    shaped, varies = [], False
    for segment in segments:
        stem, dot, extension = segment.rpartition(".") if re.fullmatch(r".+\.(?:html?|php|aspx?|jsp)", segment) \
            else (segment, "", "")
        suffix = re.escape(dot + extension) if dot else ""
        if stem.isdigit():
            shaped.append(r"\d+" + suffix)
            varies = True
        elif _VARIABLE.search(stem):
            shaped.append(ANY_SEGMENT + suffix)
            varies = True
        else:
            shaped.append(re.escape(segment))
    return (tuple(shaped), path.endswith("/")) if varies else None


def shape_regex(shape: tuple[tuple[str, ...], bool]) -> str:
    segments, trailing = shape
    return "/" + "/".join(segments) + ("/?" if trailing else "") + r"(?:[?#]|$)"


def _refined(shape: tuple[tuple[str, ...], bool], paths: list[str]) -> str:
    """The shape's regex with each varying segment that all the group's paths share written literally
    (`/en/about-uu/jobs/<slug>` rather than four wildcards)."""
    segments, trailing = list(shape[0]), shape[1]
    split = [[segment for segment in path.split("/") if segment] for path in paths]
    if all(len(parts) == len(segments) for parts in split):
        for index, segment in enumerate(segments):
            values = {parts[index] for parts in split}
            if (segment.startswith(ANY_SEGMENT) or segment.startswith(r"\d+")) and len(values) == 1:
                segments[index] = re.escape(values.pop())
    return shape_regex((tuple(segments), trailing))


def infer_href(body: bytes, url: str):
    """(strategy, reasons, confidence, evidence) for the page's repeated job cards, or None when it has none."""
    root = _parse(body)
    if root is None:
        return None
    page = urlsplit(url)

    def href_of(anchor) -> str | None:
        raw = (anchor.get("href") or "").strip()
        if not raw or raw.startswith(("#", "mailto:", "tel:", "javascript:")):
            return None
        target = urljoin(url, raw).split("#")[0]
        parts = urlsplit(target)
        if parts.scheme not in ("http", "https") or parts.hostname != page.hostname:
            return None
        if parts.path.rstrip("/") == page.path.rstrip("/") and parts.query == page.query:
            return None
        return target

    groups: dict[tuple[str, str], dict[str, etree._Element]] = defaultdict(dict)
    for anchor in root.iter("a"):
        target = href_of(anchor)
        if not target or _in_chrome(anchor):
            continue
        shape = path_shape(urlsplit(target).path)
        if shape is None:
            continue
        card = _card(anchor, href_of)
        groups[(_selector(card), shape)].setdefault(target, card)
    scored = []
    for (selector, shape), cards in groups.items():
        if len(cards) < MIN_CARDS:
            continue
        words = sum(1 for target in cards if JOB_WORDS.search(urlsplit(target).path))
        score = len(cards) * (2.0 if words >= len(cards) / 2 else 1.0)
        scored.append((score, selector, shape, cards, words))
    if not scored:
        return None
    score, selector, shape, cards, words = max(scored, key=lambda s: (s[0], len(s[2][0])))
    pattern = _refined(shape, [urlsplit(target).path for target in cards])
    selected = root.cssselect(selector)
    with_job = [c for c in selected if any(href_of(a) and re.search(pattern, href_of(a)) for a in c.iter("a"))]
    confidence = round(min(0.9, 0.35 + 0.05 * len(cards) + (0.2 if words else 0.0)), 2)
    strategy = {"type": "href", "listing_urls": [url], "card_selector": selector, "job_url_patterns": [pattern]}
    reasons = [f"{len(cards)} cards ({selector}) link to pages shaped {pattern}"
               + (f"; {words} of their paths name jobs" if words else "; their paths name no jobs: check them"),
               f"the card selector matches {len(selected)} element(s) on the page, {len(with_job)} with a job link"]
    if len(with_job) < len(selected):
        reasons.append("some matched cards have no job link: they are skipped at crawl time")
    return strategy, reasons, confidence, sorted(cards)[:5]


__all__ = ["Proposal", "infer_href", "propose_source", "source_id_for"]
