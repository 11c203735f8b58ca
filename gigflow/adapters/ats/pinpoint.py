"""Pinpoint: the careers site's public JSON (`https://<company>.pinpointhq.com/postings.json`: every open posting
with its description sections, pay and deadline) and the hosted HTML board."""

from __future__ import annotations

import re

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("pinpointhq.com",)
DEFAULT_BASE = "https://{board}.pinpointhq.com"
JOB_URL = re.compile(r"pinpointhq\.com/(?:[a-z]{2}/)?(?:postings|jobs)/(?P<id>[0-9a-f-]{8,})")
SECTIONS = (("description", None), ("key_responsibilities", "key_responsibilities_header"),
            ("skills_knowledge_expertise", "skills_knowledge_expertise_header"), ("benefits", "benefits_header"))
UNITS = {"hour": "HOUR", "day": "DAY", "week": "WEEK", "month": "MONTH", "year": "YEAR"}
REMOTE = {"remote": "remote", "hybrid": "hybrid", "onsite": "onsite", "on_site": "onsite"}


def listing_url(board: str, base: str | None = None) -> str:
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}/postings.json"


def detail_url(board: str, posting_path: str, base: str | None = None) -> str:
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}{posting_path}"


def next_page(data, url: str) -> NextPage | None:
    return None


class PinpointAdapter(AtsAdapter):
    parser_key = "pinpoint"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b"pinpointhq.com" in head and (b'"compensation' in head or b'"workplace_type"' in head)

    def read(self, data, url: str) -> ExtractionResult:
        items = data.get("data") if isinstance(data, dict) else None
        if isinstance(items, list):
            jobs = [_job(item, f"$.data[{i}]") for i, item in enumerate(items) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[])
        if isinstance(items, dict) and items.get("title"):
            return result(self, [_job(items, "$.data")], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `data` list of postings or one posting"))


def _job(item: dict, path: str) -> ExtractedJob:
    place = item.get("location") if isinstance(item.get("location"), dict) else {}
    job = item.get("job") if isinstance(item.get("job"), dict) else {}
    sections = []
    for field, header in SECTIONS:
        text = html_to_text(item.get(field))
        if text:
            heading = clean_text(item.get(header)) if header else None
            sections.append(f"{heading}\n{text}" if heading else text)
    salary = None
    low, high = item.get("compensation_minimum"), item.get("compensation_maximum")
    if item.get("compensation_visible") is not False and (low or high or item.get("compensation")):
        salary = (Salary(min=low if isinstance(low, (int, float)) else None,
                         max=high if isinstance(high, (int, float)) else None,
                         currency=(clean_text(item.get("compensation_currency")) or "").upper() or None,
                         unit=next((unit for word, unit in UNITS.items()
                                    if word in str(item.get("compensation_frequency")).lower()), None),
                         raw=clean_text(item.get("compensation"), 500)), f"{path}.compensation")
    company = item.get("company") if isinstance(item.get("company"), dict) else {}
    location = first(join_place(place.get("city"), place.get("province")), clean_text(place.get("name")))
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (clean_text(item.get("url")), f"{path}.url"),
        "apply_url": (clean_text(item.get("url")), f"{path}.url"),
        "external_id": (clean_text(item.get("id")), f"{path}.id"),
        "employer": (clean_text(first(company.get("name"), item.get("company_name"))), f"{path}.company"),
        "location": (location, f"{path}.location"),
        "remote": (REMOTE.get(str(item.get("workplace_type")).lower()), f"{path}.workplace_type"),
        "employment_type": (clean_text(first(item.get("employment_type_text"), item.get("employment_type"))),
                            f"{path}.employment_type_text"),
        "date_posted": (clean_text(first(item.get("published_at"), item.get("created_at"))), f"{path}.published_at"),
        "valid_through": (clean_text(item.get("deadline_at")), f"{path}.deadline_at"),
        "description": ("\n".join(sections)[:20000] or None, f"{path}.description"),
    }, raw={"id": item.get("id"), "path": item.get("path"), "job": job, "location": place,
            "employment_type": item.get("employment_type")}, salary=salary)
