"""Lever: postings API JSON (a list, paged with skip/limit; or one posting) and the jobs.lever.co HTML board."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from urllib.parse import parse_qs, quote, urlencode, urlsplit, urlunsplit

from gigflow.adapters.ats.base import AtsAdapter, as_list, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("jobs.lever.co", "api.lever.co", "jobs.eu.lever.co", "api.eu.lever.co")
DEFAULT_BASE = "https://api.lever.co"
EU_BASE = "https://api.eu.lever.co"
PAGE_SIZE = 100
JOB_URL = re.compile(r"lever\.co/[^/?#]+/(?P<id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")


def listing_url(board: str, base: str = DEFAULT_BASE, *, skip: int = 0, limit: int = PAGE_SIZE) -> str:
    return f"{base.rstrip('/')}/v0/postings/{quote(board, safe='')}?" + urlencode(
        {"mode": "json", "skip": skip, "limit": limit})


def detail_url(board: str, posting_id: str, base: str = DEFAULT_BASE) -> str:
    return f"{base.rstrip('/')}/v0/postings/{quote(board, safe='')}/{quote(posting_id, safe='')}?mode=json"


def next_page(data, url: str) -> NextPage | None:
    """A full page (as many postings as `limit`) means there may be more: ask again with skip += limit."""
    parts = urlsplit(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    if not isinstance(data, list) or "limit" not in query:
        return None
    try:
        skip, limit = int(query.get("skip", 0)), int(query["limit"])
    except ValueError:
        return None
    if limit <= 0 or len(data) < limit:
        return None
    query["skip"] = str(skip + limit)
    return NextPage(url=urlunsplit(parts._replace(query=urlencode(query))))


class LeverAdapter(AtsAdapter):
    parser_key = "lever"
    parser_version = "1.1.0"  # 1.1: the employer is never null (the source's company, else the board)
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b'"hostedUrl"' in head and b"lever.co" in head

    def read(self, data, url: str) -> ExtractionResult:
        if isinstance(data, list):
            jobs = [_job(item, f"$[{i}]") for i, item in enumerate(data) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[], next_page=next_page(data, url))
        if isinstance(data, dict) and ("hostedUrl" in data or "text" in data):
            return result(self, [_job(data, "$")], kind="detail", warnings=[])
        return failed(self, PayloadError("expected a list of postings or one posting"))


def _job(item: dict, path: str) -> ExtractedJob:
    categories = item.get("categories") if isinstance(item.get("categories"), dict) else {}
    all_locations = [clean_text(x) for x in as_list(categories.get("allLocations")) if clean_text(x)]
    created = item.get("createdAt")
    date_posted = (datetime.fromtimestamp(created / 1000, tz=timezone.utc).date().isoformat()
                   if isinstance(created, (int, float)) and created > 0 else None)
    salary = None
    band = item.get("salaryRange")
    if isinstance(band, dict):
        salary = (Salary(min=band.get("min"), max=band.get("max"), currency=clean_text(band.get("currency")),
                         unit=_unit(band.get("interval")), raw=str(band)[:500]), f"{path}.salaryRange")
    lists = [f"{clean_text(block.get('text'))}\n{html_to_text(block.get('content')) or ''}"
             for block in as_list(item.get("lists")) if isinstance(block, dict)]
    description = "\n".join(filter(None, [html_to_text(first(item.get("description"), item.get("openingPlain"))),
                                          *lists, html_to_text(item.get("additional"))]))
    return ats_job({
        "title": (clean_text(item.get("text"), 300), f"{path}.text"),
        "url": (clean_text(item.get("hostedUrl")), f"{path}.hostedUrl"),
        "apply_url": (clean_text(item.get("applyUrl")), f"{path}.applyUrl"),
        "external_id": (clean_text(item.get("id")), f"{path}.id"),
        "location": (clean_text(categories.get("location")), f"{path}.categories.location"),
        "employment_type": (clean_text(categories.get("commitment")), f"{path}.categories.commitment"),
        "remote": ({"remote": "remote", "hybrid": "hybrid", "onsite": "onsite"}.get(str(item.get("workplaceType"))),
                   f"{path}.workplaceType"),
        "date_posted": (date_posted, f"{path}.createdAt"),
        "description": (description[:20000] or None, f"{path}.description"),
    }, raw={k: v for k, v in item.items() if not k.startswith(("description", "additional", "opening", "lists"))},
        salary=salary, locations=all_locations)


def _unit(interval) -> str | None:
    return {"per-hour": "HOUR", "per-day": "DAY", "per-week": "WEEK", "per-month": "MONTH",
            "per-year-salary": "YEAR"}.get(str(interval))
