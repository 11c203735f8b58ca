"""Ashby: the public posting API (`api.ashbyhq.com/posting-api/job-board/<org>`: every listed job with its
description in one response) and the jobs.ashbyhq.com HTML board."""

from __future__ import annotations

import re
from urllib.parse import quote

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, as_list, ats_job, board_segment, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("ashbyhq.com",)
DEFAULT_BASE = "https://api.ashbyhq.com"
PUBLIC_BASE = "https://jobs.ashbyhq.com"
JOB_URL = re.compile(r"jobs\.ashbyhq\.com/[^/?#]+/(?P<id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
BOARD_URL = re.compile(r"(?:jobs\.ashbyhq\.com/|/posting-api/job-board/)(?P<board>[^/?#&\"']+)")
UNITS = {"1 HOUR": "HOUR", "1 DAY": "DAY", "1 WEEK": "WEEK", "1 MONTH": "MONTH", "1 YEAR": "YEAR"}


def listing_url(board: str, base: str = DEFAULT_BASE) -> str:
    return f"{base.rstrip('/')}/posting-api/job-board/{quote(board, safe='')}?includeCompensation=true"


def detail_url(board: str, job_id: str, base: str = DEFAULT_BASE) -> str:
    return f"{PUBLIC_BASE}/{quote(board, safe='')}/{quote(job_id, safe='')}"


def next_page(data, url: str) -> NextPage | None:
    """The job-board endpoint returns every listed job at once."""
    return None


def board_from_url(url: str) -> str | None:
    return board_segment(BOARD_URL, url, reserved={"api", "posting-api"})


class AshbyAdapter(AtsAdapter):
    parser_key = "ashby"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL
    board_from_url = staticmethod(board_from_url)

    def is_payload(self, head: bytes) -> bool:
        return b"ashbyhq.com" in head and (b'"jobUrl"' in head or b'"apiVersion"' in head)

    def read(self, data, url: str) -> ExtractionResult:
        board = data.get("data") if isinstance(data, dict) and isinstance(data.get("data"), dict) else None
        board = board.get("jobBoard") if isinstance(board, dict) else None
        if isinstance(board, dict) and isinstance(board.get("jobPostings"), list):
            # The job board page's own GraphQL answer (ApiJobBoardWithTeams): postings without text.
            org = self.board_from_url(url)
            jobs = [_job({**item, "jobUrl": item.get("jobUrl") or (f"{PUBLIC_BASE}/{quote(org, safe='')}/"
                                                                   f"{quote(str(item.get('id')), safe='')}"
                                                                   if org and item.get("id") else None)},
                         f"$.data.jobBoard.jobPostings[{i}]", None)
                    for i, item in enumerate(board["jobPostings"]) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[])
        if isinstance(data, dict) and isinstance(data.get("jobs"), list):
            employer = _organisation(data)
            jobs = [_job(item, f"$.jobs[{i}]", employer) for i, item in enumerate(data["jobs"]) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[])
        job = data.get("job") if isinstance(data, dict) and isinstance(data.get("job"), dict) else data
        if isinstance(job, dict) and job.get("title") and (job.get("jobUrl") or job.get("id")):
            return result(self, [_job(job, "$.job" if job is not data else "$", _organisation(data))],
                          kind="detail", warnings=[])
        return failed(self, PayloadError("expected `jobs` list or one job"))


def _organisation(data) -> tuple[str, str] | None:
    for key in ("organizationName", "organization", "companyName"):
        value = data.get(key) if isinstance(data, dict) else None
        if isinstance(value, dict):
            value = value.get("name")
        if clean_text(value):
            return clean_text(value), f"$.{key}"
    return None


def _address(item: dict) -> str | None:
    address = item.get("address") if isinstance(item.get("address"), dict) else {}
    postal = address.get("postalAddress") if isinstance(address.get("postalAddress"), dict) else {}
    return join_place(postal.get("addressLocality"), postal.get("addressRegion"), postal.get("addressCountry"))


def _salary(item: dict, path: str) -> tuple[Salary, str] | None:
    compensation = item.get("compensation") if isinstance(item.get("compensation"), dict) else {}
    components = [c for c in as_list(compensation.get("summaryComponents")) if isinstance(c, dict)]
    for index, component in enumerate(components):
        if str(component.get("compensationType", "")).lower() == "salary":
            return (Salary(min=component.get("minValue") if isinstance(component.get("minValue"), (int, float)) else None,
                           max=component.get("maxValue") if isinstance(component.get("maxValue"), (int, float)) else None,
                           currency=clean_text(component.get("currencyCode")),
                           unit=UNITS.get(str(component.get("interval")).upper()),
                           raw=clean_text(first(compensation.get("scrapeableCompensationSalarySummary"),
                                                compensation.get("compensationTierSummary")), 500)),
                    f"{path}.compensation.summaryComponents[{index}]")
    summary = clean_text(first(compensation.get("scrapeableCompensationSalarySummary"),
                               compensation.get("compensationTierSummary"), item.get("compensationTierSummary")), 500)
    return (Salary(raw=summary), f"{path}.compensation") if summary else None


def _job(item: dict, path: str, employer: tuple[str, str] | None) -> ExtractedJob:
    location = clean_text(first(item.get("location"), item.get("locationName")))
    secondary = [clean_text(first(place.get("location"), place.get("locationName"))) if isinstance(place, dict)
                 else clean_text(place)
                 for place in as_list(item.get("secondaryLocations"))]
    places = [p for p in [location, *secondary] if p]
    workplace = str(item.get("workplaceType") or "").lower()
    remote = ("remote" if item.get("isRemote") is True or workplace == "remote"
              else workplace if workplace in ("hybrid", "onsite") else None)
    job_id = clean_text(item.get("id"))
    description = first(html_to_text(item.get("descriptionHtml")), clean_text(item.get("descriptionPlain"), 20000))
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (clean_text(first(item.get("jobUrl"), item.get("externalLink"))), f"{path}.jobUrl"),
        "apply_url": (clean_text(item.get("applyUrl")), f"{path}.applyUrl"),
        "external_id": (job_id, f"{path}.id"),
        "employer": (employer[0] if employer else None, employer[1] if employer else ""),
        "location": (first(location, _address(item)), f"{path}.location"),
        "remote": (remote, f"{path}.isRemote"),
        "employment_type": (clean_text(item.get("employmentType")), f"{path}.employmentType"),
        "date_posted": (clean_text(first(item.get("publishedAt"), item.get("publishedDate"), item.get("updatedAt"))),
                        f"{path}.publishedAt"),
        "description": (description, f"{path}.descriptionHtml"),
    }, raw={k: v for k, v in item.items() if not k.startswith("description")}, salary=_salary(item, path),
        locations=list(dict.fromkeys(places)))
