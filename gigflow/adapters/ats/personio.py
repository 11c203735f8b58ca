"""Personio: the public XML feed of a company's job site (`https://<company>.jobs.personio.de/xml`, every
published position with its description sections) and the hosted HTML board."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from lxml import etree

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, as_list, ats_job, failed, result
from gigflow.adapters.common import as_bytes, clean_text, first, host_matches, html_to_text
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage

HOSTS = ("jobs.personio.de", "jobs.personio.com")
JOB_URL = re.compile(r"jobs\.personio\.(?:de|com)/job/(?P<id>\d+)")
MAX_XML_BYTES = 50_000_000


def origin(board: str) -> str:
    slug, _, tld = board.partition(".")
    return f"https://{slug}.jobs.personio.{tld or 'de'}"


def listing_url(board: str, base: str | None = None) -> str:
    return f"{(base or origin(board)).rstrip('/')}/xml"


def detail_url(board: str, position_id: str, base: str | None = None) -> str:
    return f"{(base or origin(board)).rstrip('/')}/job/{position_id}"


def next_page(data, url: str) -> NextPage | None:
    return None  # the feed holds every published position


def is_feed(head: bytes) -> bool:
    return b"<workzag-jobs" in head[:4000]


class PersonioAdapter(AtsAdapter):
    parser_key = "personio"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return is_feed(head)

    def supports(self, url: str, content: bytes | str) -> bool:
        return host_matches(url, *self.hosts) or is_feed(as_bytes(content[:4000]))

    def read(self, data, url: str) -> ExtractionResult:
        """The job site's JSON (`/search.json`): a list of positions, or `{"jobs": [...]}`."""
        items = data if isinstance(data, list) else data.get("jobs") if isinstance(data, dict) else None
        if not isinstance(items, list):
            return failed(self, PayloadError("expected the XML feed, or a JSON list of positions"))
        parts = urlsplit(url or "")
        base = f"{parts.scheme}://{parts.netloc}" if host_matches(url, *HOSTS) else None
        jobs = [_json_job(item, f"$[{i}]", base) for i, item in enumerate(items) if isinstance(item, dict)]
        return result(self, jobs, kind="listing", warnings=[])

    def extract_payload(self, content: bytes | str, *, url: str) -> ExtractionResult:
        body = as_bytes(content)
        if not is_feed(body):
            return super().extract_payload(content, url=url)  # the hosted HTML board
        if len(body) > MAX_XML_BYTES:
            return failed(self, PayloadError(f"XML feed of {len(body)} bytes exceeds {MAX_XML_BYTES}"))
        parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, recover=True)
        try:
            root = etree.fromstring(body.lstrip(), parser=parser)
        except (etree.XMLSyntaxError, ValueError) as exc:
            return failed(self, PayloadError(f"unreadable XML: {exc}"))
        if root is None:
            return failed(self, PayloadError("empty XML feed"))
        parts = urlsplit(url or "")
        # Job pages live beside the feed, on the company's jobs site that serves it.
        base = f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None
        positions = [p for p in root.iter("position")]
        jobs = [_job(position, f"/workzag-jobs/position[{i + 1}]", base) for i, position in enumerate(positions)]
        warnings = [] if base else ["personio: no http(s) URL given, so jobs have no URL (ids kept)"]
        return result(self, jobs, kind="listing", warnings=warnings)


def _json_job(item: dict, path: str, base: str | None) -> ExtractedJob:
    """One position of the job site's `search.json` (id, name, office, department, employment_type, schedule)."""
    position_id = clean_text(item.get("id"))
    url = f"{base}/job/{position_id}" if base and position_id else None
    offices = [clean_text(item.get("office"))] + [clean_text(o.get("name") if isinstance(o, dict) else o)
                                                  for o in as_list(item.get("offices"))]
    office = first(*offices)
    kind = " ".join(filter(None, [clean_text(item.get("employment_type")), clean_text(item.get("schedule"))]))
    return ats_job({
        "title": (clean_text(item.get("name"), 300), f"{path}.name"),
        "url": (url, f"{path}.id"),
        "external_id": (position_id, f"{path}.id"),
        "employer": (clean_text(item.get("subcompany")), f"{path}.subcompany"),
        "location": (office, f"{path}.office"),
        "employment_type": (kind or None, f"{path}.employment_type"),
        "date_posted": (clean_text(first(item.get("created_at"), item.get("createdAt"))), f"{path}.created_at"),
        "description": (html_to_text(item.get("description")), f"{path}.description"),
    }, raw={k: v for k, v in item.items() if k != "description"}, locations=list(dict.fromkeys(o for o in offices if o)))


def _text(position, name: str) -> str | None:
    node = position.find(name)
    return clean_text(node.text) if node is not None else None


def _job(position, path: str, base: str | None) -> ExtractedJob:
    position_id = _text(position, "id")
    offices = [_text(position, "office")] + [clean_text(node.text) for node in position.iterfind("additionalOffices/office")]
    sections = []
    for section in position.iterfind("jobDescriptions/jobDescription"):
        heading = _text(section, "name")
        value = section.find("value")
        text = html_to_text(value.text) if value is not None and value.text else None
        if text:
            sections.append(f"{heading}\n{text}" if heading else text)
    kind = " ".join(filter(None, [_text(position, "employmentType"), _text(position, "schedule")]))
    # Some feeds name the job page (<jobUrl>, <url>); else it is <host>/job/<id> beside the feed.
    named = first(_text(position, "jobUrl"), _text(position, "url"))
    url = named if named and named.startswith(("http://", "https://")) else (
        f"{base}/job/{position_id}" if base and position_id else None)
    if not position_id and url:
        match = JOB_URL.search(url)
        position_id = match.group("id") if match else None
    office = first(*offices)
    return ats_job({
        "title": (_text(position, "name"), f"{path}/name"),
        "url": (url, f"{path}/id"),
        "apply_url": (f"{url}#apply" if url else None, f"{path}/id"),
        "external_id": (position_id, f"{path}/id"),
        "employer": (_text(position, "subcompany"), f"{path}/subcompany"),
        "location": (office, f"{path}/office"),
        "remote": ("remote" if (office or "").lower() in ("remote", "remote work", "homeoffice", "home office")
                   else None, f"{path}/office"),
        "employment_type": (kind or None, f"{path}/employmentType"),
        "date_posted": (_text(position, "createdAt"), f"{path}/createdAt"),
        "description": ("\n".join(sections)[:20000] or None, f"{path}/jobDescriptions"),
    }, raw={child.tag: clean_text(child.text, 300) for child in position
            if isinstance(child.tag, str) and child.tag != "jobDescriptions"},
        locations=list(dict.fromkeys(o for o in offices if o)))
