"""Recruitee: the careers-site `api/offers` JSON (all offers, or `{"offer": ...}`) and the hosted HTML board."""

from __future__ import annotations

import re
from urllib.parse import quote

from gigflow.adapters.ats.base import AtsAdapter, as_list, PayloadError, ats_job, closed_state, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("recruitee.com",)
JOB_URL = re.compile(r"recruitee\.com/o/(?P<id>[^/?#]+)/?(?:[?#]|$)")

DEFAULT_BASE = "https://{board}.recruitee.com"


def listing_url(board: str, base: str | None = None) -> str:
    """`https://{board}.recruitee.com/api/offers/`; `base` replaces the whole origin (custom careers domain)."""
    origin = (base or DEFAULT_BASE).replace("{board}", quote(board, safe="")).rstrip("/")
    return f"{origin}/api/offers/"


def detail_url(board: str, slug: str, base: str | None = None) -> str:
    origin = (base or f"https://{quote(board, safe='')}.recruitee.com").rstrip("/")
    return f"{origin}/api/offers/{quote(slug, safe='')}"


def next_page(data, url: str) -> NextPage | None:
    """The offers endpoint returns every published offer at once."""
    return None


class RecruiteeAdapter(AtsAdapter):
    parser_key = "recruitee"
    parser_version = "1.2.0"  # 1.2: a closed or archived offer states it (closed_notice); 1.1: employer never null
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return (b'"offers"' in head or b'"offer"' in head) and b"recruitee" in head

    def read(self, data, url: str) -> ExtractionResult:
        if isinstance(data, dict) and isinstance(data.get("offers"), list):
            jobs = [_job(item, f"$.offers[{i}]") for i, item in enumerate(data["offers"]) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[])
        if isinstance(data, dict) and isinstance(data.get("offer"), dict):
            return result(self, [_job(data["offer"], "$.offer")], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `offers` list or one `offer`"))


def _job(item: dict, path: str) -> ExtractedJob:
    band = item.get("salary") if isinstance(item.get("salary"), dict) else {}
    salary = None
    if band.get("min") or band.get("max"):
        salary = (Salary(min=_number(band.get("min")), max=_number(band.get("max")),
                         currency=clean_text(band.get("currency")),
                         unit={"hour": "HOUR", "day": "DAY", "week": "WEEK", "month": "MONTH",
                               "year": "YEAR"}.get(str(band.get("period"))), raw=str(band)[:500]), f"{path}.salary")
    location = first(clean_text(item.get("location")) if str(item.get("location", "")).lower() != "remote job" else None,
                     join_place(item.get("city"), item.get("state_name"), item.get("country")))
    locations = [join_place(p.get("city"), p.get("state"), p.get("country")) for p in as_list(item.get("locations"))
                 if isinstance(p, dict)]
    remote = "remote" if item.get("remote") else "hybrid" if item.get("hybrid") else "onsite" if item.get("on_site") else None
    description = "\n".join(filter(None, [html_to_text(item.get("description")), html_to_text(item.get("requirements"))]))
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (clean_text(item.get("careers_url")), f"{path}.careers_url"),
        "apply_url": (clean_text(item.get("careers_apply_url")), f"{path}.careers_apply_url"),
        "external_id": (str(item["id"]) if item.get("id") is not None else None, f"{path}.id"),
        "employer": (clean_text(item.get("company_name")), f"{path}.company_name"),
        "location": (location, f"{path}.location"),
        "remote": (remote, f"{path}.remote"),
        "employment_type": (clean_text(item.get("employment_type_code")), f"{path}.employment_type_code"),
        "date_posted": (clean_text(item.get("published_at")), f"{path}.published_at"),
        "valid_through": (clean_text(item.get("close_at")), f"{path}.close_at"),
        "description": (description or None, f"{path}.description"),
        "requirements": (html_to_text(item.get("requirements")), f"{path}.requirements"),
        "closed_notice": (closed_state(item.get("status"), "status"), f"{path}.status"),
    }, raw={k: v for k, v in item.items() if k not in ("description", "requirements", "translations", "open_questions")},
        salary=salary, locations=[x for x in locations if x])


def _number(value) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
