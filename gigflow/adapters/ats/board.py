"""HTML job boards hosted by an ATS: one candidate per anchor whose URL matches the provider's job-URL pattern."""

from __future__ import annotations

import re
from urllib.parse import urljoin

from lxml import etree
from lxml import html as lxml_html

from gigflow.adapters.common import as_bytes, clean_text, host_matches, is_http_url
from gigflow.adapters.types import Evidence, ExtractedJob

BOARD_CONFIDENCE = 0.85


def board_candidates(content: bytes | str, *, url: str, job_url: re.Pattern, hosts: tuple[str, ...],
                     employer: str | None = None) -> list[ExtractedJob]:
    """Anchors to job detail URLs on the provider's own hosts; the anchor text (or its heading) is the title.

    The external id is the pattern's `id` group. Several anchors to one job (title link + "Apply") collapse.
    """
    try:
        root = lxml_html.document_fromstring(as_bytes(content) or b"<html/>",
                                             parser=lxml_html.HTMLParser(recover=True, remove_comments=True))
    except (etree.ParserError, ValueError):
        return []
    jobs: dict[str, ExtractedJob] = {}
    employer_path = None
    if employer is None:
        # Hosted boards title themselves "Jobs at Acme" / "Current openings at Acme".
        title = clean_text(root.findtext(".//title"), 300) or ""
        match = re.match(r"^(?:jobs|careers|current openings|open positions)\s+at\s+(.+?)(?:\s+[|–-].*)?$", title, re.I)
        employer, employer_path = (match.group(1), "<title> 'Jobs at'") if match else (None, None)
    for anchor in root.iter("a"):
        href = urljoin(url, (anchor.get("href") or "").strip())
        match = job_url.search(href)
        if not match or not is_http_url(href) or not host_matches(href, *hosts):
            continue
        external_id = match.group("id")
        title = _anchor_title(anchor)
        if not title:
            continue
        if external_id in jobs:
            continue
        path = root.getroottree().getpath(anchor)
        job = ExtractedJob(title=title, url=href.split("#")[0], external_id=external_id, employer=employer)
        job.evidence = {
            "title": Evidence(method="css", snippet_or_path=f"{path} text", confidence=BOARD_CONFIDENCE),
            "url": Evidence(method="css", snippet_or_path=f"{path}@href", confidence=BOARD_CONFIDENCE),
            "external_id": Evidence(method="css", snippet_or_path=f"{path}@href", confidence=BOARD_CONFIDENCE),
        }
        if employer_path:
            job.evidence["employer"] = Evidence(method="meta", snippet_or_path=employer_path, confidence=0.7)
        location = _card_location(anchor)
        if location:
            job.location = location
            job.evidence["location"] = Evidence(method="css", snippet_or_path=f"{path}/..//*[@class~=location]",
                                                confidence=0.7)
        jobs[external_id] = job
    return list(jobs.values())


def _anchor_title(anchor) -> str | None:
    for heading in anchor.iter("h1", "h2", "h3", "h4", "h5"):
        text = clean_text(heading.text_content(), 300)
        if text:
            return text
    text = clean_text(anchor.text_content(), 300)
    if text and text.lower() in ("apply", "apply now", "apply for this job", "learn more", "view job"):
        return None
    return text


def _card_location(anchor) -> str | None:
    for node in (anchor, anchor.getparent()):
        if node is None:
            continue
        for element in node.iter():
            classes = (element.get("class") or "").lower()
            if "location" in classes and element is not anchor:
                return clean_text(element.text_content(), 200)
    return None
