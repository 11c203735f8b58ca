"""Manatal: the career page's open API (`core.api.manatal.com/open/v3/career-page/<client>/jobs/`, pages of
ten linked by `next`) whose jobs live at `www.careers-page.com/<client>/job/<hash>`."""

from __future__ import annotations

import re
from urllib.parse import quote, urljoin, urlsplit

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("manatal.com", "careers-page.com")
DEFAULT_BASE = "https://core.api.manatal.com"
PUBLIC_BASE = "https://www.careers-page.com"
JOB_URL = re.compile(r"careers-page\.com/[^/?#]+/job/(?P<id>[A-Za-z0-9]+)")
API = re.compile(r"/career-page/(?P<board>[^/?#]+)/jobs")


def listing_url(board: str, base: str = DEFAULT_BASE) -> str:
    return f"{base.rstrip('/')}/open/v3/career-page/{quote(board, safe='')}/jobs/"


def detail_url(board: str, job_hash: str, base: str | None = None) -> str:
    return f"{PUBLIC_BASE}/{quote(board, safe='')}/job/{quote(job_hash, safe='')}"


def next_page(data, url: str) -> NextPage | None:
    following = data.get("next") if isinstance(data, dict) else None
    if isinstance(following, str) and following.strip():
        # The API names its public host; a page is asked for where the first one was (ATS_BASE_URLS in tests).
        target = urlsplit(urljoin(url, following.strip()))
        here = urlsplit(url)
        return NextPage(url=target._replace(scheme=here.scheme, netloc=here.netloc).geturl() if here.netloc else
                        target.geturl())
    return None


class ManatalAdapter(AtsAdapter):
    parser_key = "manatal"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b'"position_name"' in head

    def read(self, data, url: str) -> ExtractionResult:
        match = API.search(urlsplit(url or "").path)
        board = match.group("board") if match else self.board_from_url(url)
        if isinstance(data, dict) and isinstance(data.get("results"), list):
            jobs = [_job(item, f"$.results[{i}]", board) for i, item in enumerate(data["results"]) if isinstance(item, dict)]
            warnings = [] if board else ["manatal: not read from a career-page API URL, so jobs have no URL (ids kept)"]
            return result(self, jobs, kind="listing", warnings=warnings, next_page=next_page(data, url))
        if isinstance(data, dict) and data.get("position_name"):
            return result(self, [_job(data, "$", board)], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `results` list or one job"))


def _job(item: dict, path: str, board: str | None) -> ExtractedJob:
    job_hash = clean_text(item.get("hash"))
    url = clean_text(first(item.get("url"), item.get("career_page_url")))
    if not url and board and job_hash:
        url = detail_url(board, job_hash)
    salary = None
    if item.get("is_salary_visible") and (item.get("salary_min") or item.get("salary_max")):
        salary = (Salary(min=_number(item.get("salary_min")), max=_number(item.get("salary_max")),
                         currency=clean_text(item.get("currency")), raw=None), f"{path}.salary_min")
    organisation = item.get("organization") if isinstance(item.get("organization"), dict) else {}
    return ats_job({
        "title": (clean_text(item.get("position_name"), 300), f"{path}.position_name"),
        "url": (url, f"{path}.hash"),
        "apply_url": (url, f"{path}.hash"),
        "external_id": (first(job_hash, clean_text(item.get("id"))), f"{path}.hash"),
        "employer": (clean_text(first(item.get("organization_name"), organisation.get("name"))), f"{path}.organization_name"),
        "location": (first(clean_text(item.get("location_display")),
                           join_place(item.get("city"), item.get("state"), item.get("country"))), f"{path}.location_display"),
        "remote": ("remote" if item.get("is_remote") is True else None, f"{path}.is_remote"),
        "employment_type": (clean_text(item.get("contract_details")), f"{path}.contract_details"),
        "date_posted": (clean_text(first(item.get("created_at"), item.get("published_at"))), f"{path}.created_at"),
        "description": (html_to_text(item.get("description")), f"{path}.description"),
    }, raw={k: v for k, v in item.items() if k != "description"}, salary=salary)


def _number(value) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
