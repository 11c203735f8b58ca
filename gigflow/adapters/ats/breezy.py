"""Breezy HR: the company portal's public JSON (`https://<company>.breezy.hr/json`: every published position
with place, type, salary and company, no text) and the hosted HTML board."""

from __future__ import annotations

import re

from gigflow.adapters.ats.base import AtsAdapter, as_list, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("breezy.hr",)
DEFAULT_BASE = "https://{board}.breezy.hr"
JOB_URL = re.compile(r"breezy\.hr/p/(?P<id>[0-9a-f]{8,16})")


def listing_url(board: str, base: str | None = None) -> str:
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}/json"


def detail_url(board: str, friendly_id: str, base: str | None = None) -> str:
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}/p/{friendly_id}"


def next_page(data, url: str) -> NextPage | None:
    return None


class BreezyAdapter(AtsAdapter):
    parser_key = "breezy"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b"breezy.hr" in head and b'"friendly_id"' in head

    def read(self, data, url: str) -> ExtractionResult:
        items = data if isinstance(data, list) else data.get("positions") if isinstance(data, dict) else None
        if isinstance(items, list):
            jobs = [_job(item, f"$[{i}]") for i, item in enumerate(items) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[])
        if isinstance(data, dict) and data.get("name") and (data.get("url") or data.get("id")):
            return result(self, [_job(data, "$")], kind="detail", warnings=[])
        return failed(self, PayloadError("expected a list of positions or one position"))


def _place(place) -> str | None:
    if not isinstance(place, dict):
        return clean_text(place)
    state = place.get("state") if isinstance(place.get("state"), dict) else {}
    country = place.get("country") if isinstance(place.get("country"), dict) else {}
    return first(clean_text(place.get("name")), join_place(place.get("city"), state.get("name"), country.get("name")))


def _job(item: dict, path: str) -> ExtractedJob:
    company = item.get("company") if isinstance(item.get("company"), dict) else {}
    kind = item.get("type")
    places = [_place(p) for p in as_list(item.get("locations"))]
    location = item.get("location")
    remote = "remote" if isinstance(location, dict) and location.get("is_remote") is True else None
    salary_text = clean_text(item.get("salary"), 500)
    return ats_job({
        "title": (clean_text(item.get("name"), 300), f"{path}.name"),
        "url": (clean_text(item.get("url")), f"{path}.url"),
        "apply_url": (clean_text(item.get("url")), f"{path}.url"),
        "external_id": (clean_text(item.get("id")), f"{path}.id"),
        "employer": (clean_text(company.get("name")), f"{path}.company.name"),
        "location": (_place(location), f"{path}.location"),
        "remote": (remote, f"{path}.location.is_remote"),
        "employment_type": (clean_text(kind.get("name")) if isinstance(kind, dict) else clean_text(kind), f"{path}.type"),
        "date_posted": (clean_text(item.get("published_date")), f"{path}.published_date"),
        "description": (html_to_text(item.get("description")), f"{path}.description"),
    }, raw={k: v for k, v in item.items() if k != "description"},
        salary=(Salary(raw=salary_text), f"{path}.salary") if salary_text else None,
        locations=list(dict.fromkeys(p for p in places if p)))
