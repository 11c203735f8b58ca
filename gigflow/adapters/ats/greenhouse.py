"""Greenhouse: boards-api JSON (listing with or without `content=true`, one job) and the hosted HTML board."""

from __future__ import annotations

import re
from urllib.parse import quote

from gigflow.adapters.ats.base import AtsAdapter, as_list, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("greenhouse.io",)
DEFAULT_BASE = "https://boards-api.greenhouse.io"
JOB_URL = re.compile(r"greenhouse\.io/(?:embed/job_app\?.*?token=|[^/?#]+/jobs/)(?P<id>\d+)")


def listing_url(board: str, base: str = DEFAULT_BASE, *, content: bool = True) -> str:
    """All open jobs of a board in one response (Greenhouse does not paginate this endpoint)."""
    return f"{base.rstrip('/')}/v1/boards/{quote(board, safe='')}/jobs" + ("?content=true" if content else "")


def detail_url(board: str, job_id: str | int, base: str = DEFAULT_BASE) -> str:
    return f"{base.rstrip('/')}/v1/boards/{quote(board, safe='')}/jobs/{quote(str(job_id), safe='')}"


def next_page(data, url: str) -> NextPage | None:
    """The jobs endpoint returns every job at once."""
    return None


class GreenhouseAdapter(AtsAdapter):
    parser_key = "greenhouse"
    parser_version = "1.1.0"  # 1.1: the employer is never null (the source's company, else the board)
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b'"absolute_url"' in head and b"greenhouse" in head

    def read(self, data, url: str) -> ExtractionResult:
        if isinstance(data, dict) and isinstance(data.get("jobs"), list):
            jobs = [_job(item, f"$.jobs[{i}]") for i, item in enumerate(data["jobs"]) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[])
        if isinstance(data, dict) and "absolute_url" in data:
            return result(self, [_job(data, "$")], kind="detail", warnings=[])
        return failed(self, PayloadError("no `jobs` list and no single job (board metadata?)"))


def _job(item: dict, path: str) -> ExtractedJob:
    offices = [o.get("location") or o.get("name") for o in as_list(item.get("offices")) if isinstance(o, dict)]
    location = clean_text((item.get("location") or {}).get("name")) if isinstance(item.get("location"), dict) else None
    salary = None
    ranges = [r for r in as_list(item.get("pay_input_ranges")) if isinstance(r, dict)]
    if ranges:
        low, high = ranges[0].get("min_cents"), ranges[0].get("max_cents")
        salary = (Salary(min=low / 100 if isinstance(low, (int, float)) else None,
                         max=high / 100 if isinstance(high, (int, float)) else None,
                         currency=clean_text(ranges[0].get("currency_type")),
                         raw=clean_text(ranges[0].get("title") or ranges[0].get("blurb"), 500)),
                  f"{path}.pay_input_ranges[0]")
    departments = [clean_text(d.get("name")) for d in as_list(item.get("departments")) if isinstance(d, dict)]
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (clean_text(item.get("absolute_url")), f"{path}.absolute_url"),
        "apply_url": (clean_text(item.get("absolute_url")), f"{path}.absolute_url"),
        "external_id": (str(item["id"]) if item.get("id") is not None else None, f"{path}.id"),
        "employer": (clean_text(item.get("company_name")), f"{path}.company_name"),
        "location": (location, f"{path}.location.name"),
        "date_posted": (clean_text(first(item.get("first_published"), item.get("updated_at"))),
                        f"{path}.first_published" if item.get("first_published") else f"{path}.updated_at"),
        "valid_through": (clean_text(item.get("application_deadline")), f"{path}.application_deadline"),
        # Greenhouse ships `content` entity-encoded (`&lt;p&gt;`): decode once, then read the HTML.
        "description": (html_to_text(item.get("content"), entity_encoded=True), f"{path}.content"),
    }, raw={**{k: v for k, v in item.items() if k not in ("content", "questions", "compliance")},
            "departments": departments}, salary=salary,
        locations=[clean_text(o) for o in offices if clean_text(o)] or ([location] if location else []))
