"""Jibe (iCIMS Talent Cloud career sites): the site's public jobs API (`https://<careers host>/api/jobs`, paged
with `page` and `limit`, `totalCount` in each answer). The board is the careers host, the employer's own domain."""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from gigflow.adapters.ats.base import AtsAdapter, as_list, PayloadError, ats_job, failed, query_int, result, with_query
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS: tuple[str, ...] = ()  # every Jibe site is on its employer's domain: recognised by its payload
PAGE_SIZE = 100
JOB_URL = re.compile(r"/jobs/(?P<id>[A-Za-z0-9_-]+)(?:[?#]|$)")


def origin(board: str) -> str:
    return f"https://{board}"


def listing_url(board: str, base: str | None = None, *, page: int = 1, limit: int = PAGE_SIZE) -> str:
    return f"{(base or origin(board)).rstrip('/')}/api/jobs?page={page}&limit={limit}"


def first_page(board: str, base: str | None = None, page_size: int = PAGE_SIZE) -> NextPage:
    return NextPage(url=listing_url(board, base, limit=page_size))


def detail_url(board: str, slug: str, base: str | None = None) -> str:
    return f"{(base or origin(board)).rstrip('/')}/jobs/{quote(slug, safe='')}"


def next_page(data, url: str) -> NextPage | None:
    """page * limit < totalCount (and this page had jobs): the next page."""
    if not isinstance(data, dict) or not data.get("jobs"):
        return None
    total = first(data.get("totalCount"), data.get("count"))
    page, limit = query_int(url, "page", 1), query_int(url, "limit")
    if not isinstance(total, int) or not limit or page * limit >= total:
        return None
    return NextPage(url=with_query(url, page=page + 1))


class JibeAdapter(AtsAdapter):
    parser_key = "jibe"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b'"jobs"' in head and b'"req_id"' in head and (b'"client_code"' in head or b'"slug"' in head)

    def board_from_url(self, url: str) -> str | None:
        return urlsplit(url or "").hostname if "/api/jobs" in (url or "") else None

    def read(self, data, url: str) -> ExtractionResult:
        parts = urlsplit(url or "")
        # The API answers on the careers site itself: its job pages are on the same origin.
        site = f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else None
        if isinstance(data, dict) and isinstance(data.get("jobs"), list):
            jobs = [_job(item.get("data") if isinstance(item.get("data"), dict) else item, f"$.jobs[{i}].data", site)
                    for i, item in enumerate(data["jobs"]) if isinstance(item, dict)]
            warnings = [] if site else ["jibe: no http(s) URL given, so job pages have no URL (ids kept)"]
            return result(self, jobs, kind="listing", warnings=warnings, next_page=next_page(data, url))
        item = data.get("data") if isinstance(data, dict) and isinstance(data.get("data"), dict) else data
        if isinstance(item, dict) and item.get("title") and (item.get("slug") or item.get("req_id")):
            return result(self, [_job(item, "$.data", site)], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `jobs` list or one job"))


def _money(tags) -> float | None:
    text = " ".join(str(t) for t in tags) if isinstance(tags, list) else str(tags or "")
    match = re.search(r"(\d[\d,]*(?:\.\d+)?)", text)
    return float(match.group(1).replace(",", "")) if match else None


def _job(item: dict, path: str, site: str | None) -> ExtractedJob:
    slug = clean_text(first(item.get("slug"), item.get("req_id")))
    language = clean_text(item.get("language"))
    url = f"{site}/jobs/{quote(slug, safe='')}" + (f"?lang={quote(language)}" if language else "") if site and slug else None
    low = item.get("salary_min_value") if isinstance(item.get("salary_min_value"), (int, float)) else 0
    high = item.get("salary_max_value") if isinstance(item.get("salary_max_value"), (int, float)) else 0
    salary = None
    if low or high:
        salary = (Salary(min=low or None, max=high or None, currency=clean_text(item.get("salary_currency")),
                         raw=None), f"{path}.salary_min_value")
    places = [clean_text(p.get("location_name") if isinstance(p, dict) else p)
              for p in as_list(item.get("multipleLocations")) if not isinstance(p, bool)]
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (url, f"{path}.slug"),
        "apply_url": (clean_text(item.get("apply_url")), f"{path}.apply_url"),
        "external_id": (first(clean_text(item.get("req_id")), slug), f"{path}.req_id"),
        "employer": (clean_text(first(item.get("hiring_organization"), item.get("brand"))), f"{path}.hiring_organization"),
        "location": (first(clean_text(item.get("full_location")), clean_text(item.get("location_name")),
                           join_place(item.get("city"), item.get("state"), item.get("country"))), f"{path}.full_location"),
        "employment_type": (clean_text(item.get("employment_type")), f"{path}.employment_type"),
        "date_posted": (clean_text(first(item.get("posted_date"), item.get("create_date"))), f"{path}.posted_date"),
        "description": (first(html_to_text(item.get("description")), html_to_text(item.get("responsibilities"))),
                        f"{path}.description"),
    }, raw={k: v for k, v in item.items() if k not in ("description", "meta_data", "responsibilities", "qualifications")},
        salary=salary, locations=[p for p in places if p])
