"""The route adapter: job cards from a reviewed list page (HTML or RSS), fail-closed on host, path and marker."""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

import feedparser
from lxml import etree
from lxml import html as lxml_html

from gigflow.adapters.common import as_bytes, clean_text
from gigflow.adapters.routes.model import Route
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult

BASELINE = 0.80
EMPLOYER_CLASS = re.compile(r"company|employer|werkgever|bedrijf|organi[sz]ation", re.I)
GENERIC_LABELS = {"lees meer", "meer info", "bekijk", "bekijk vacature", "read more", "more", "details", "solliciteer",
                  "apply", "jobs", "vacatures", "alle vacatures", "all jobs"}


class RouteAdapter:
    parser_version = "1.0.0"
    fail_closed = True

    def __init__(self, route: Route):
        self.route = route
        self.parser_key = f"route:{route.name}"

    def supports(self, url: str, content: bytes | str) -> bool:
        parts = urlsplit(url)
        return self.route.scannable and parts.scheme == "https" and self.route.same_host(parts.hostname)

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult:
        route = self.route
        if not route.scannable:
            return self._empty(f"{self.parser_key}: watch-list entry, not scannable ({route.watch_reason})")
        parts = urlsplit(url)
        if parts.scheme != "https" or not route.same_host(parts.hostname):
            return self._empty(f"{self.parser_key}: {url} is not on https://{route.host}")
        if parts.path != route.list_path:
            return self._empty(f"{self.parser_key}: {parts.path} is not the reviewed list path {route.list_path}")
        data = as_bytes(content)
        if route.marker and route.marker.encode("utf-8") not in data:
            return self._empty(f"{self.parser_key}: required local marker {route.marker!r} absent; nothing taken")
        warnings: list[str] = []
        candidates = self._feed(data, url, warnings) if route.format == "rss" else self._cards(data, url, warnings)
        jobs = []
        for job in candidates:
            if route.reviewed_location and not job.location:
                job.location = route.reviewed_location
                job.evidence["location"] = Evidence(method="css", snippet_or_path=f"{self.parser_key} reviewed location",
                                                    confidence=0.7)
            job.provenance = {"route": route.name, "follow_details": str(route.follow_details).lower(),
                              **({"employer_id": route.employer_id} if route.employer_id else {})}
            jobs.append(job)
        return ExtractionResult(jobs=jobs, parser_key=self.parser_key, parser_version=self.parser_version,
                                confidence=BASELINE if jobs else 0.0, kind="listing",
                                warnings=warnings + ([] if jobs else [f"{self.parser_key}: no job cards"]))

    def _empty(self, warning: str) -> ExtractionResult:
        return ExtractionResult(parser_key=self.parser_key, parser_version=self.parser_version, warnings=[warning])

    def _accept(self, href: str, warnings: list[str]) -> bool:
        parts = urlsplit(href)
        if parts.scheme not in ("http", "https"):
            return False
        if not self.route.same_host(parts.hostname):
            warnings.append(f"{self.parser_key}: rejected off-host job link {href[:200]}")
            return False
        prefix = self.route.job_path_prefix
        return not prefix or (parts.path.startswith(prefix) and parts.path.rstrip("/") != prefix.rstrip("/"))

    def _cards(self, data: bytes, url: str, warnings: list[str]) -> list[ExtractedJob]:
        try:
            root = lxml_html.document_fromstring(data or b"<html/>")
        except (etree.ParserError, ValueError) as exc:
            warnings.append(f"{self.parser_key}: unreadable HTML ({exc})")
            return []
        etree.strip_elements(root, "script", "style", "template", with_tail=False)
        tree = root.getroottree()
        jobs: dict[str, ExtractedJob] = {}
        for anchor in root.iter("a"):
            raw_href = (anchor.get("href") or "").strip()
            if not raw_href or raw_href.startswith(("#", "mailto:", "tel:", "javascript:")):
                continue
            href = urljoin(url, raw_href).split("#")[0]
            card = _card(anchor)
            if self.route.job_path_prefix and self.route.job_path_prefix not in urlsplit(href).path \
                    and self.route.same_host(urlsplit(href).hostname):
                continue
            if not self._accept(href, warnings):
                continue
            title = _card_title(anchor, card)
            if not title or href in jobs:
                continue
            path = tree.getpath(anchor)
            job = ExtractedJob(title=title, url=href)
            job.evidence = {"title": Evidence(method="css", snippet_or_path=f"{path} text", confidence=BASELINE),
                            "url": Evidence(method="css", snippet_or_path=f"{path}@href", confidence=BASELINE)}
            employer = _card_employer(card) if self.route.keep_listed_employer else None
            if employer:
                job.employer = employer
                job.evidence["employer"] = Evidence(method="css", snippet_or_path=f"{tree.getpath(card)} employer",
                                                    confidence=0.7)
            elif not self.route.keep_listed_employer:
                job.employer = self.route.employer
                job.evidence["employer"] = Evidence(method="css", snippet_or_path=f"{self.parser_key} employer",
                                                    confidence=0.9)
            jobs[href] = job
        return list(jobs.values())

    def _feed(self, data: bytes, url: str, warnings: list[str]) -> list[ExtractedJob]:
        parsed = feedparser.parse(data, response_headers={"content-location": url})
        jobs = []
        for index, entry in enumerate(parsed.entries):
            link = urljoin(url, entry.get("link") or "")
            title = clean_text(entry.get("title"), 300)
            if not title or not self._accept(link, warnings):
                continue
            job = ExtractedJob(title=title, url=link, employer=self.route.employer,
                               external_id=clean_text(entry.get("id")), date_posted=clean_text(entry.get("published")))
            job.evidence = {name: Evidence(method="feed", snippet_or_path=f"entries[{index}].{path}", confidence=BASELINE)
                            for name, path in (("title", "title"), ("url", "link"), ("external_id", "id"),
                                               ("date_posted", "published")) if getattr(job, name)}
            job.evidence["employer"] = Evidence(method="feed", snippet_or_path=f"{self.parser_key} employer",
                                                confidence=0.9)
            jobs.append(job)
        return jobs


def _card(anchor):
    """The smallest ancestor that looks like a card: an article, li, or element with class card/job/vacancy."""
    node = anchor
    for _ in range(5):
        parent = node.getparent()
        if parent is None:
            break
        node = parent
        if node.tag in ("article", "li") or re.search(r"card|job|vacan|vacature|item", node.get("class") or "", re.I):
            return node
    return anchor


def _card_title(anchor, card) -> str | None:
    for element in (anchor, card):
        for heading in element.iter("h1", "h2", "h3", "h4", "h5"):
            text = clean_text(heading.text_content(), 300)
            if text:
                return text
    text = clean_text(anchor.text_content(), 300)
    return None if not text or text.lower() in GENERIC_LABELS else text


def _card_employer(card) -> str | None:
    for element in card.iter():
        if isinstance(element.tag, str) and EMPLOYER_CLASS.search(element.get("class") or ""):
            text = clean_text(element.text_content(), 200)
            if text:
                return text
    return None
