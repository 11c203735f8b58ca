"""Workable: the account widget JSON, the v3 jobs API (paged by `nextPage` token), jobs.workable.com company JSON."""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from gigflow.adapters.ats.base import AtsAdapter, as_list, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage

HOSTS = ("apply.workable.com", "jobs.workable.com")
DEFAULT_BASE = "https://apply.workable.com"
JOB_URL = re.compile(r"apply\.workable\.com/(?:[^/?#]+/)?j/(?P<id>[0-9A-Z]{6,12})")
V3_JOBS = re.compile(r"/api/v3/accounts/(?P<account>[^/?#]+)/jobs")


def listing_url(account: str, base: str = DEFAULT_BASE) -> str:
    """The widget endpoint: every published job with details, in one response."""
    return f"{base.rstrip('/')}/api/v1/widget/accounts/{quote(account, safe='')}?details=true"


def jobs_api_url(account: str, base: str = DEFAULT_BASE) -> str:
    """The v3 jobs API: POST `{}` for the first page, then the `nextPage` token (see `next_page`)."""
    return f"{base.rstrip('/')}/api/v3/accounts/{quote(account, safe='')}/jobs"


def detail_url(account: str, shortcode: str, base: str = DEFAULT_BASE) -> str:
    return f"{base.rstrip('/')}/api/v2/accounts/{quote(account, safe='')}/jobs/{quote(shortcode, safe='')}"


def next_page(data, url: str) -> NextPage | None:
    """The v3 API pages with a `nextPage` token POSTed back to the same URL."""
    token = data.get("nextPage") if isinstance(data, dict) else None
    if not token or not isinstance(token, str):
        return None
    return NextPage(url=url, method="POST", json_body={"token": token})


class WorkableAdapter(AtsAdapter):
    parser_key = "workable"
    parser_version = "1.1.0"  # 1.1: the employer is never null (the source's company, else the board)
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b"workable.com" in head and b'"shortcode"' in head

    def read(self, data, url: str) -> ExtractionResult:
        if not isinstance(data, dict):
            return failed(self, PayloadError("expected a JSON object"))
        employer = clean_text(data.get("name")) if isinstance(data.get("name"), str) else None
        if isinstance(data.get("results"), list):  # v3 jobs API
            match = V3_JOBS.search(urlsplit(url).path)
            account = match.group("account") if match else None
            jobs = [_v3_job(item, f"$.results[{i}]", account) for i, item in enumerate(data["results"])
                    if isinstance(item, dict)]
            return _deduplicated(self, jobs, next_page=next_page(data, url))
        if isinstance(data.get("jobs"), list):
            if "totalSize" in data:  # jobs.workable.com company payload
                employer = clean_text(data.get("title"))
            jobs = [_widget_job(item, f"$.jobs[{i}]", employer) for i, item in enumerate(data["jobs"])
                    if isinstance(item, dict)]
            return _deduplicated(self, jobs)
        if data.get("shortcode") and data.get("title"):
            return result(self, [_v3_job(data, "$", None)], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `jobs`, `results` or one job"))


def _deduplicated(adapter, jobs: list[ExtractedJob], next_page: NextPage | None = None) -> ExtractionResult:
    """Workable repeats one shortcode once per location: keep the first, gather the others' locations."""
    by_id: dict[str, ExtractedJob] = {}
    warnings = []
    for job in jobs:
        key = job.external_id or job.url or job.title
        if key in by_id:
            kept = by_id[key]
            for place in job.locations or ([job.location] if job.location else []):
                if place not in kept.locations:
                    kept.locations.append(place)
            warnings.append(f"workable: shortcode {key} repeated; locations merged")
        else:
            by_id[key] = job
    return result(adapter, list(by_id.values()), kind="listing", warnings=warnings, next_page=next_page)


def _locations(item: dict) -> list[str]:
    places = []
    for place in as_list(item.get("locations")):
        text = (clean_text(place) if isinstance(place, str)
                else join_place(place.get("city"), place.get("region") or place.get("subregion"),
                                place.get("country") or place.get("countryName")) if isinstance(place, dict) else None)
        if text and text not in places:
            places.append(text)
    return places


def _widget_job(item: dict, path: str, employer: str | None) -> ExtractedJob:
    places = _locations(item)
    place = item.get("location") if isinstance(item.get("location"), dict) else {}
    # jobs.workable.com items use `state` for the posting state ("published"), so their `location` comes first.
    location = first(join_place(place.get("city"), place.get("subregion"), place.get("countryName")),
                     join_place(item.get("city"), item.get("state"), item.get("country")),
                     places[0] if places else None)
    shortcode = clean_text(item.get("shortcode")) or _shortcode(item.get("applyUrl")) or clean_text(item.get("id"))
    company = item.get("company") if isinstance(item.get("company"), dict) else {}
    workplace = str(item.get("workplace") or "").lower()
    description = "\n".join(filter(None, [html_to_text(item.get("description")),
                                          html_to_text(item.get("requirementsSection")),
                                          html_to_text(item.get("benefitsSection"))]))
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (clean_text(first(item.get("url"), item.get("shortlink"))), f"{path}.url"),
        "apply_url": (clean_text(first(item.get("application_url"), item.get("applyUrl"))), f"{path}.application_url"),
        "external_id": (shortcode, f"{path}.shortcode"),
        "employer": (first(clean_text(company.get("title")), employer), f"{path}.company.title"),
        "location": (location, f"{path}.city"),
        "remote": ("remote" if item.get("telecommuting") is True or workplace == "remote"
                   else workplace if workplace in ("hybrid", "onsite") else None, f"{path}.telecommuting"),
        "employment_type": (clean_text(first(item.get("employment_type"), item.get("employmentType"))),
                            f"{path}.employment_type"),
        "date_posted": (clean_text(first(item.get("published_on"), item.get("created"))), f"{path}.published_on"),
        "description": (description or None, f"{path}.description"),
        "requirements": (html_to_text(item.get("requirementsSection")), f"{path}.requirementsSection"),
    }, raw={k: v for k, v in item.items() if "escription" not in k and "Section" not in k}, locations=places)


def _v3_job(item: dict, path: str, account: str | None) -> ExtractedJob:
    shortcode = clean_text(item.get("shortcode"))
    url = (f"{DEFAULT_BASE}/{quote(account, safe='')}/j/{quote(shortcode, safe='')}/"
           if account and shortcode else clean_text(item.get("url")))
    place = item.get("location") if isinstance(item.get("location"), dict) else {}
    places = _locations(item)
    workplace = str(item.get("workplace") or "").lower()
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (url, f"account + {path}.shortcode"),
        "external_id": (shortcode, f"{path}.shortcode"),
        "location": (join_place(place.get("city"), place.get("region"), place.get("country")) or
                     (places[0] if places else None), f"{path}.location"),
        "remote": ("remote" if item.get("remote") is True else workplace if workplace in ("hybrid", "onsite")
                   else None, f"{path}.remote"),
        "employment_type": (clean_text(item.get("type")), f"{path}.type"),
        "date_posted": (clean_text(item.get("published")), f"{path}.published"),
        "description": (html_to_text(item.get("description")), f"{path}.description"),
    }, raw={k: v for k, v in item.items() if k != "description"}, locations=places)


def _shortcode(url) -> str | None:
    match = JOB_URL.search(url or "") if isinstance(url, str) else None
    return match.group("id") if match else None
