"""RSS and Atom job feeds via feedparser: one job per entry. Never the generic HTML parser on XML."""

from __future__ import annotations

import feedparser

from gigflow.adapters.common import as_bytes, bounded_raw, clean_text, first, html_to_text, is_http_url
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult

BASELINE = 0.82
MAX_ENTRIES = 5000


class FeedAdapter:
    parser_key = "feed"
    parser_version = "1.0.0"

    def supports(self, url: str, content: bytes | str) -> bool:
        head = as_bytes(content)[:2048].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
        return head.startswith(b"<?xml") and (b"<rss" in head or b"<feed" in head or b"<rdf" in head) or \
            head.startswith((b"<rss", b"<feed", b"<rdf:rdf"))

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult:
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
            date_posted=clean_text(first(entry.get("published"), entry.get("updated"))),
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
