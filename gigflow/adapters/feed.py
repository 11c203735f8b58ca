"""Job feeds: RSS and Atom via feedparser, the XML job-feed format (`<source><job>`, Indeed/Workable style) and
JSON Feed 1.x (Teamtailor, with an optional embedded `_jobposting`). One job per entry. Never the generic HTML
parser on XML."""

from __future__ import annotations

import time

import feedparser
from lxml import etree

from gigflow.adapters.common import (PayloadError, as_bytes, bounded_raw, clean_text, first, html_to_text,
                                     is_http_url, join_place, load_json)
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult

JSON_FEED = b"jsonfeed.org/version"
# No entities, no DTDs, no network: a feed is data, and a billion-laughs feed stays harmless.
XML_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=True)


def is_json_feed(content: bytes | str) -> bool:
    head = as_bytes(content)[:1024]
    return head.lstrip()[:1] == b"{" and JSON_FEED in head


def _xml_job_feed(content: bytes | str) -> bool:
    head = as_bytes(content)[:1024].lower()
    return b"<source" in head and b"<job" in as_bytes(content)[:20000].lower()

BASELINE = 0.82
MAX_ENTRIES = 5000


class FeedAdapter:
    parser_key = "feed"
    parser_version = "1.0.0"

    def supports(self, url: str, content: bytes | str) -> bool:
        head = as_bytes(content)[:2048].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        return head.startswith(b"<?xml") and (b"<rss" in head or b"<feed" in head or b"<rdf" in head) or \
            head.startswith((b"<rss", b"<feed", b"<rdf:rdf")) or is_json_feed(content) or _xml_job_feed(content)

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult:
        if is_json_feed(content):
            return self._json_feed(content, url)
        if _xml_job_feed(content):
            return self._xml_jobs(content, url)
        # feedparser resolves relative links against the feed URL; it fetches nothing when given bytes.
        parsed = feedparser.parse(as_bytes(content), response_headers={"content-location": url})
        warnings = []
        if parsed.get("bozo") and not parsed.entries:
            warnings.append(f"feed: unreadable ({parsed.get('bozo_exception')!s:.200})")
        employer = clean_text(parsed.feed.get("author") or (parsed.feed.get("publisher")))
        jobs = []
        for index, entry in enumerate(parsed.entries[:MAX_ENTRIES]):
            job = self._job(entry, index, employer)
            if job.is_storable():
                jobs.append(job)
            else:
                warnings.append(f"feed entry {index}: dropped, no title or no http(s) link / id")
        if len(parsed.entries) > MAX_ENTRIES:
            warnings.append(f"feed: {len(parsed.entries)} entries, kept the first {MAX_ENTRIES}")
        confidence = BASELINE if jobs else 0.0
        return ExtractionResult(jobs=jobs, parser_key=self.parser_key, parser_version=self.parser_version,
                                confidence=confidence, warnings=warnings, kind="listing")

    def _job(self, entry, index: int, employer: str | None) -> ExtractedJob:
        def ev(path: str, confidence: float = BASELINE) -> Evidence:
            return Evidence(method="feed", snippet_or_path=f"entries[{index}].{path}", confidence=confidence)

        link = clean_text(entry.get("link"))
        description = first(*(html_to_text(c.get("value")) for c in entry.get("content") or []),
                            html_to_text(entry.get("summary")))
        location = clean_text(first(entry.get("job_location"), entry.get("location"), entry.get("georss_point")))
        job = ExtractedJob(
            title=clean_text(entry.get("title"), 300) or "",
            url=link if is_http_url(link) else None,
            external_id=clean_text(entry.get("id")),
            employer=clean_text(first(entry.get("job_company"), entry.get("company"))) or employer,
            location=location,
            # dict.get: FeedParserDict maps missing keys to their siblings, with a deprecation warning.
            date_posted=_iso(first(dict.get(entry, "published_parsed"), dict.get(entry, "updated_parsed")))
            or clean_text(first(entry.get("published"), entry.get("updated"))),
            description=description,
            apply_url=link if is_http_url(link) else None,
            raw=bounded_raw({k: v for k, v in entry.items() if k not in ("summary", "content", "summary_detail")}),
        )
        paths = {"title": "title", "url": "link", "apply_url": "link", "external_id": "id",
                 "employer": "company" if entry.get("company") or entry.get("job_company") else "feed.author",
                 "location": "location", "date_posted": "published", "description": "summary"}
        job.evidence = {f: ev(p, BASELINE if f != "employer" or p != "feed.author" else 0.5)
                        for f, p in paths.items() if getattr(job, f)}
        return job

    def _finish(self, jobs: list[ExtractedJob], warnings: list[str]) -> ExtractionResult:
        kept = [job for job in jobs if job.is_storable()]
        if len(kept) < len(jobs):
            warnings.append(f"feed: {len(jobs) - len(kept)} entr(ies) dropped, no title or no http(s) link / id")
        return ExtractionResult(jobs=kept, parser_key=self.parser_key, parser_version=self.parser_version,
                                confidence=BASELINE if kept else 0.0, warnings=warnings, kind="listing")

    def _json_feed(self, content: bytes | str, url: str) -> ExtractionResult:
        from gigflow.adapters.jsonld import JsonLdAdapter  # its JobPosting reader serves embedded postings

        try:
            data = load_json(content)
        except PayloadError as exc:
            return ExtractionResult(parser_key=self.parser_key, parser_version=self.parser_version,
                                    warnings=[f"json feed: {exc}"])
        items = data.get("items") if isinstance(data, dict) else None
        if not isinstance(items, list):
            return self._finish([], ["json feed: no `items` list"])
        jobs = []
        for index, item in enumerate(items[:MAX_ENTRIES]):
            if not isinstance(item, dict):
                continue
            posting = item.get("_jobposting")
            if isinstance(posting, dict):
                job = JsonLdAdapter()._job(posting, index, clean_text(item.get("url")) or "")
                job.evidence = {k: Evidence(method="feed", snippet_or_path=f"items[{index}]._jobposting.{v.snippet_or_path.split('.', 1)[-1]}",
                                            confidence=BASELINE) for k, v in job.evidence.items()}
            else:
                job = ExtractedJob(title="")
            job.title = job.title or clean_text(item.get("title"), 300) or ""
            job.url = clean_text(item.get("url")) or job.url
            job.external_id = job.external_id or clean_text(item.get("id"))
            job.date_posted = job.date_posted or clean_text(item.get("date_published"))
            job.description = job.description or html_to_text(first(item.get("content_html"), item.get("content_text")))
            for name, path in (("title", "title"), ("url", "url"), ("external_id", "id"),
                               ("date_posted", "date_published"), ("description", "content_html")):
                if getattr(job, name) and name not in job.evidence:
                    job.evidence[name] = Evidence(method="feed", snippet_or_path=f"items[{index}].{path}",
                                                  confidence=BASELINE)
            job.raw = bounded_raw({k: v for k, v in item.items() if k not in ("content_html", "content_text")})
            jobs.append(job)
        return self._finish(jobs, [])

    def _xml_jobs(self, content: bytes | str, url: str) -> ExtractionResult:
        try:
            root = etree.fromstring(as_bytes(content), parser=XML_PARSER)
        except etree.XMLSyntaxError as exc:
            root = None
            error = exc
        if root is None:
            return self._finish([], [f"xml job feed: unreadable ({locals().get('error', 'empty')})"])
        publisher = clean_text(root.findtext("publisher"))
        jobs = []
        for index, element in enumerate(root.iter("job")):
            if index >= MAX_ENTRIES:
                break

            def text(tag: str) -> str | None:
                return clean_text(element.findtext(tag), 300)

            link = text("url")
            job = ExtractedJob(
                title=text("title") or "", url=link if is_http_url(link) else None,
                external_id=text("referencenumber"), employer=text("company"),
                location=join_place(text("city"), text("state"), text("country")),
                remote="remote" if (text("remote") or "").lower() == "true" else None,
                employment_type=text("jobtype"), date_posted=text("date"),
                description=html_to_text(element.findtext("description")),
                apply_url=link if is_http_url(link) else None,
            )
            paths = {"title": "title", "url": "url", "apply_url": "url", "external_id": "referencenumber",
                     "employer": "company", "location": "city", "employment_type": "jobtype", "date_posted": "date",
                     "description": "description"}
            job.evidence = {f: Evidence(method="feed", snippet_or_path=f"job[{index}]/{p}", confidence=BASELINE)
                            for f, p in paths.items() if getattr(job, f)}
            if publisher:
                job.provenance = {"publisher": publisher}
            jobs.append(job)
        return self._finish(jobs, [] if jobs else ["xml job feed: no <job> elements"])


def _iso(parsed) -> str | None:
    """feedparser's parsed date (UTC struct_time) as an ISO timestamp."""
    if not parsed:
        return None
    try:
        return time.strftime("%Y-%m-%dT%H:%M:%SZ", parsed)
    except (TypeError, ValueError):
        return None
