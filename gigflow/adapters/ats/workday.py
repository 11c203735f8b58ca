"""Workday: the career site's public cxs JSON (`/wday/cxs/<tenant>/<site>/jobs`, POSTed pages of at most 20
postings with `offset`; one posting at `/wday/cxs/<tenant>/<site>/job/...`) and the myworkdayjobs.com HTML board.

A board id is `<tenant>.<wdN>/<site>`, as in `https://<tenant>.<wdN>.myworkdayjobs.com/<site>`. Listings carry
title, path, place and a relative "Posted ..." date; the description comes with each posting's detail.
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from gigflow.adapters.ats.base import AtsAdapter, as_list, PayloadError, ats_job, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage

HOSTS = ("myworkdayjobs.com", "myworkdaysite.com")
PAGE_SIZE = 20  # the cxs endpoint refuses larger pages
JOB_URL = re.compile(r"myworkday(?:jobs|site)\.com/(?:[a-z]{2}-[A-Za-z]{2}/)?[^/?#]+/job/(?:[^?#]*/)?[^/?#]*_(?P<id>[A-Za-z0-9-]+)")
CXS = re.compile(r"/wday/cxs/(?P<tenant>[^/?#]+)/(?P<site>[^/?#]+)")
FETCH_DETAILS = True
PAGING = "post-offset"


def origin(board: str) -> str:
    return f"https://{board.split('/', 1)[0]}.myworkdayjobs.com"


def _parts(board: str) -> tuple[str, str]:
    host, _, site = board.partition("/")
    return host.split(".", 1)[0], site or "External"


def listing_url(board: str, base: str | None = None) -> str:
    tenant, site = _parts(board)
    return f"{(base or origin(board)).rstrip('/')}/wday/cxs/{quote(tenant, safe='')}/{quote(site, safe='')}/jobs"


def first_page(board: str, base: str | None = None, page_size: int = PAGE_SIZE) -> NextPage:
    return NextPage(url=listing_url(board, base), method="POST",
                    json_body={"appliedFacets": {}, "limit": min(page_size, PAGE_SIZE), "offset": 0, "searchText": ""})


def next_offset_page(previous: NextPage, total: int, jobs_on_page: int) -> NextPage | None:
    """Workday reports `total` on the first page only: the spider keeps it and asks until offset reaches it."""
    body = dict(previous.json_body or {})
    offset, limit = int(body.get("offset", 0)), int(body.get("limit", PAGE_SIZE))
    if jobs_on_page == 0 or offset + limit >= total:
        return None
    return NextPage(url=previous.url, method="POST", json_body={**body, "offset": offset + limit})


def detail_url(board: str, job: ExtractedJob, base: str | None = None) -> str | None:
    path = job.raw.get("externalPath") if isinstance(job.raw, dict) else None
    if not isinstance(path, str) or not path.startswith("/"):
        return None
    tenant, site = _parts(board)
    return f"{(base or origin(board)).rstrip('/')}/wday/cxs/{quote(tenant, safe='')}/{quote(site, safe='')}{path}"


def next_page(data, url: str) -> NextPage | None:
    return None  # POSTed pages: see next_offset_page


def _public_base(url: str) -> str | None:
    """https://<host>/<site> of a cxs URL or of the board's own page (the job pages' base); None for others."""
    parts = urlsplit(url or "")
    if not parts.scheme or not parts.netloc:
        return None
    match = CXS.search(parts.path)
    if match:
        return f"{parts.scheme}://{parts.netloc}/{match.group('site')}"
    site = re.match(r"^/(?:[a-z]{2}-[A-Za-z]{2}/)?([A-Za-z0-9_-]+)", parts.path)
    if site and (parts.hostname or "").endswith(HOSTS) and site.group(1) not in ("wday", "job"):
        return f"{parts.scheme}://{parts.netloc}/{site.group(1)}"
    return None


def _req_id(path: str | None) -> str | None:
    match = re.search(r"_(?P<id>[A-Za-z0-9-]+)/?$", path or "")
    return match.group("id") if match else None


def _posted(text) -> str | None:
    """"Posted Today", "Posted 3 Days Ago", "Posted 30+ Days Ago": relative text the date reader understands."""
    text = clean_text(text)
    if not text:
        return None
    text = re.sub(r"^posted\s+", "", text, flags=re.I)
    return re.sub(r"(\d+)\+", r"\1", text)


class WorkdayAdapter(AtsAdapter):
    parser_key = "workday"
    parser_version = "1.0.0"
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b'"jobPostings"' in head or b'"jobPostingInfo"' in head

    def read(self, data, url: str) -> ExtractionResult:
        if not isinstance(data, dict):
            return failed(self, PayloadError("expected a JSON object"))
        base = _public_base(url)
        if isinstance(data.get("jobPostings"), list):
            jobs = [_listing_job(item, f"$.jobPostings[{i}]", base) for i, item in enumerate(data["jobPostings"])
                    if isinstance(item, dict)]
            warnings = [] if base else ["workday: not a cxs URL, so job pages have no URL (ids kept)"]
            return result(self, jobs, kind="listing", warnings=warnings)
        if isinstance(data.get("jobPostingInfo"), dict):
            return result(self, [_detail_job(data, base)], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `jobPostings` or `jobPostingInfo`"))


def _listing_job(item: dict, path: str, base: str | None) -> ExtractedJob:
    external_path = clean_text(item.get("externalPath"))
    bullets = [clean_text(b) for b in as_list(item.get("bulletFields")) if clean_text(b)]
    return ats_job({
        "title": (clean_text(item.get("title"), 300), f"{path}.title"),
        "url": (f"{base}{external_path}" if base and external_path else None, f"{path}.externalPath"),
        # The job page carries the Apply button (Workday applies on the same page, /apply under it).
        "apply_url": (f"{base}{external_path}" if base and external_path else None, f"{path}.externalPath"),
        "external_id": (first(_req_id(external_path), bullets[0] if bullets else None, external_path),
                        f"{path}.externalPath"),
        # "2 Locations" is a count, not a place: the detail names them.
        "location": (None if re.fullmatch(r"\d+ \w+", clean_text(item.get("locationsText")) or "")
                     else clean_text(item.get("locationsText")), f"{path}.locationsText"),
        "remote": ("remote" if str(item.get("remoteType") or "").lower().startswith("remote") else None,
                   f"{path}.remoteType"),
        "date_posted": (_posted(item.get("postedOn")), f"{path}.postedOn"),
    }, raw=item)


def _detail_job(data: dict, base: str | None) -> ExtractedJob:
    info = data["jobPostingInfo"]
    organisation = data.get("hiringOrganization") if isinstance(data.get("hiringOrganization"), dict) else {}
    # Legal entities come as "908000 Motorola Solutions UK Limited": the leading cost-centre code is not a name.
    employer = re.sub(r"^\d{3,}\s+", "", clean_text(organisation.get("name")) or "") or None
    posting_id = clean_text(info.get("jobPostingId"))
    url = clean_text(info.get("externalUrl"))
    if url and url.rstrip("/").endswith("/job") and base and posting_id:
        url = None  # a bare /job/ prefix is no page
    locations = [clean_text(info.get("location"))] + [clean_text(x) for x in as_list(info.get("additionalLocations"))]
    country = info.get("country") if isinstance(info.get("country"), dict) else {}
    remote = str(info.get("remoteType") or "").lower()
    return ats_job({
        "title": (clean_text(info.get("title"), 300), "$.jobPostingInfo.title"),
        "url": (url, "$.jobPostingInfo.externalUrl"),
        "apply_url": (url, "$.jobPostingInfo.externalUrl"),
        "external_id": (first(clean_text(info.get("jobReqId")), _req_id(posting_id), clean_text(info.get("id"))),
                        "$.jobPostingInfo.jobReqId"),
        "employer": (employer, "$.hiringOrganization.name"),
        "location": (first(clean_text(info.get("location")), clean_text(country.get("descriptor"))),
                     "$.jobPostingInfo.location"),
        "remote": ("remote" if remote.startswith("remote") else "hybrid" if "hybrid" in remote else None,
                   "$.jobPostingInfo.remoteType"),
        "employment_type": (clean_text(info.get("timeType")), "$.jobPostingInfo.timeType"),
        "date_posted": (first(clean_text(info.get("startDate")), _posted(info.get("postedOn"))),
                        "$.jobPostingInfo.startDate"),
        "valid_through": (clean_text(info.get("endDate")), "$.jobPostingInfo.endDate"),
        "description": (html_to_text(info.get("jobDescription")), "$.jobPostingInfo.jobDescription"),
    }, raw={k: v for k, v in info.items() if k != "jobDescription"}, locations=[x for x in locations if x])
