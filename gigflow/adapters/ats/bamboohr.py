"""BambooHR: the careers site's public JSON (`https://<company>.bamboohr.com/careers/list`: every open job without
its text; `/careers/<id>/detail`: one job with description and date) and the hosted HTML board."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, host_matches, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage

HOSTS = ("bamboohr.com",)
DEFAULT_BASE = "https://{board}.bamboohr.com"
JOB_URL = re.compile(r"bamboohr\.com/(?:careers|jobs)/(?:view\.php\?id=)?(?P<id>\d+)")
FETCH_DETAILS = True
REMOTE = {"0": "onsite", "1": "remote", "2": "hybrid"}  # locationType as the careers site shows it


def listing_url(board: str, base: str | None = None) -> str:
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}/careers/list"


def detail_url(board: str, job: ExtractedJob | str, base: str | None = None) -> str | None:
    job_id = job if isinstance(job, str) else job.external_id
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}/careers/{job_id}/detail" if job_id else None


def next_page(data, url: str) -> NextPage | None:
    return None  # the list holds every open job


def _origin(url: str) -> str | None:
    parts = urlsplit(url or "")
    # Job pages live beside the JSON, on the company's careers site (its /careers/ paths).
    served = host_matches(url, *HOSTS) or parts.path.startswith("/careers/")
    return f"{parts.scheme}://{parts.netloc}" if served and parts.scheme in ("http", "https") else None


class BambooHrAdapter(AtsAdapter):
    parser_key = "bamboohr"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b'"jobOpeningName"' in head or b'"jobOpening"' in head

    def read(self, data, url: str) -> ExtractionResult:
        items = data.get("result") if isinstance(data, dict) else None
        origin = _origin(url)
        if isinstance(items, list):
            jobs = [_job(item, f"$.result[{i}]", origin) for i, item in enumerate(items) if isinstance(item, dict)]
            warnings = [] if origin else ["bamboohr: not read from a bamboohr host, so jobs have no URL (ids kept)"]
            return result(self, jobs, kind="listing", warnings=warnings)
        if isinstance(items, dict) and isinstance(items.get("jobOpening"), dict):
            job = _job(items["jobOpening"], "$.result.jobOpening", origin)
            return result(self, [job], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `result` list or `result.jobOpening`"))


def _place(item: dict) -> str | None:
    """City and state (the list and the detail both name them; only the detail adds the country, and one posting
    must read the same in both), else the country alone."""
    for key in ("location", "atsLocation"):
        place = item.get(key) if isinstance(item.get(key), dict) else {}
        text = first(join_place(place.get("city"), first(place.get("state"), place.get("province"))),
                     clean_text(first(place.get("addressCountry"), place.get("country"))))
        if text:
            return text
    return None


def _job(item: dict, path: str, origin: str | None) -> ExtractedJob:
    share = clean_text(item.get("jobOpeningShareUrl"))
    match = JOB_URL.search(share or "")
    job_id = first(clean_text(item.get("id")), match.group("id") if match else None)
    url = share or (f"{origin}/careers/{job_id}" if origin and job_id else None)
    remote = "remote" if item.get("isRemote") is True else REMOTE.get(str(item.get("locationType")))
    return ats_job({
        "title": (clean_text(item.get("jobOpeningName"), 300), f"{path}.jobOpeningName"),
        "url": (url, f"{path}.jobOpeningShareUrl" if share else f"{path}.id"),
        "apply_url": (url, f"{path}.jobOpeningShareUrl" if share else f"{path}.id"),
        "external_id": (job_id, f"{path}.id"),
        "location": (_place(item), f"{path}.location"),
        "remote": (remote, f"{path}.locationType"),
        "employment_type": (clean_text(item.get("employmentStatusLabel")), f"{path}.employmentStatusLabel"),
        "date_posted": (clean_text(item.get("datePosted")), f"{path}.datePosted"),
        "description": (html_to_text(item.get("description")), f"{path}.description"),
    }, raw={k: v for k, v in item.items() if k != "description"})
