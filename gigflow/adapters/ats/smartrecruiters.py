"""SmartRecruiters: the public Posting API (paged listing with offset/limit/totalFound; one posting)."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, quote, urlencode, urlsplit, urlunsplit

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, ats_job, closed_state, failed, result
from gigflow.adapters.common import clean_text, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage

HOSTS = ("smartrecruiters.com",)
DEFAULT_BASE = "https://api.smartrecruiters.com"
PUBLIC_BASE = "https://jobs.smartrecruiters.com"
PAGE_SIZE = 100
JOB_URL = re.compile(r"jobs\.smartrecruiters\.com/[^/?#]+/(?P<id>\d+)")


def listing_url(company: str, base: str = DEFAULT_BASE, *, offset: int = 0, limit: int = PAGE_SIZE) -> str:
    return f"{base.rstrip('/')}/v1/companies/{quote(company, safe='')}/postings?" + urlencode(
        {"offset": offset, "limit": limit})


def detail_url(company: str, posting_id: str, base: str = DEFAULT_BASE) -> str:
    return f"{base.rstrip('/')}/v1/companies/{quote(company, safe='')}/postings/{quote(posting_id, safe='')}"


def next_page(data, url: str) -> NextPage | None:
    """offset + limit < totalFound means another page; the same URL with the offset moved on."""
    if not isinstance(data, dict):
        return None
    offset, limit, total = data.get("offset"), data.get("limit"), data.get("totalFound")
    if not all(isinstance(x, int) for x in (offset, limit, total)) or limit <= 0 or offset + limit >= total:
        return None
    parts = urlsplit(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    query.update(offset=str(offset + limit), limit=str(limit))
    return NextPage(url=urlunsplit(parts._replace(query=urlencode(query))))


class SmartRecruitersAdapter(AtsAdapter):
    parser_key = "smartrecruiters"
    parser_version = "1.2.0"  # 1.2: an inactive posting states it (closed_notice); 1.1: the employer never null
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b"smartrecruiters.com" in head and b'"releasedDate"' in head

    def read(self, data, url: str) -> ExtractionResult:
        if isinstance(data, dict) and isinstance(data.get("content"), list):
            jobs = [_job(item, f"$.content[{i}]") for i, item in enumerate(data["content"]) if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[], next_page=next_page(data, url))
        if isinstance(data, dict) and "name" in data and "id" in data:
            return result(self, [_job(data, "$")], kind="detail", warnings=[])
        return failed(self, PayloadError("expected `content` list of postings or one posting"))


def _job(item: dict, path: str) -> ExtractedJob:
    company = item.get("company") if isinstance(item.get("company"), dict) else {}
    place = item.get("location") if isinstance(item.get("location"), dict) else {}
    location = clean_text(place.get("fullLocation")) or join_place(place.get("city"), place.get("region"),
                                                                   str(place.get("country") or "").upper() or None)
    posting_id = clean_text(item.get("id"))
    url, url_path = clean_text(item.get("postingUrl")), f"{path}.postingUrl"
    if not url and posting_id and company.get("identifier"):
        # Listings carry no public URL; the public job page is addressed by company identifier and posting id.
        url, url_path = (f"{PUBLIC_BASE}/{quote(str(company['identifier']), safe='')}/{quote(posting_id, safe='')}",
                         f"{path}.company.identifier + {path}.id")
    sections = item["jobAd"].get("sections") if isinstance(item.get("jobAd"), dict) else {}
    sections = sections if isinstance(sections, dict) else {}
    description = "\n".join(filter(None, (html_to_text((sections.get(name) or {}).get("text"))
                                          for name in ("jobDescription", "qualifications", "additionalInformation")
                                          if isinstance(sections.get(name), dict))))
    kind = item.get("typeOfEmployment") if isinstance(item.get("typeOfEmployment"), dict) else {}
    return ats_job({
        "title": (clean_text(item.get("name"), 300), f"{path}.name"),
        "url": (url, url_path),
        "apply_url": (clean_text(item.get("applyUrl")) or url, f"{path}.applyUrl"),
        "external_id": (posting_id, f"{path}.id"),
        "employer": (clean_text(company.get("name")), f"{path}.company.name"),
        "location": (location, f"{path}.location"),
        "remote": ("remote" if place.get("remote") is True else None, f"{path}.location.remote"),
        "employment_type": (clean_text(kind.get("label")), f"{path}.typeOfEmployment.label"),
        "date_posted": (clean_text(item.get("releasedDate")), f"{path}.releasedDate"),
        "description": (description or None, f"{path}.jobAd.sections"),
        "requirements": (html_to_text((sections.get("qualifications") or {}).get("text"))
                         if isinstance(sections.get("qualifications"), dict) else None,
                         f"{path}.jobAd.sections.qualifications.text"),
        "closed_notice": (closed_state(item.get("active"), "active"), f"{path}.active"),
    }, raw={k: v for k, v in item.items() if k not in ("jobAd", "customField", "creator")})
