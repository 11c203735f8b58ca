"""Teamtailor: the career site's public job feed (`https://<company>.teamtailor.com/jobs.json`, a JSON Feed whose
items carry a schema.org JobPosting in `_jobposting`) and API v1 payloads (JSON:API `data`, paged by `links.next`;
the API needs a key, so the ATS strategy reads the public feed)."""

from __future__ import annotations

import re
from urllib.parse import urljoin

from gigflow.adapters.ats.base import AtsAdapter, PayloadError, as_list, ats_job, closed_state, failed, result
from gigflow.adapters.common import clean_text, first, html_to_text, join_place
from gigflow.adapters.types import ExtractedJob, ExtractionResult, NextPage, Salary

HOSTS = ("teamtailor.com",)
DEFAULT_BASE = "https://{board}.teamtailor.com"
JOB_URL = re.compile(r"/jobs/(?P<id>\d+)(?:-[^/?#]*)?/?(?:[?#]|$)")
REMOTE = {"fully": "remote", "remote": "remote", "hybrid": "hybrid", "none": "onsite", "temporary": "hybrid"}


def listing_url(board: str, base: str | None = None) -> str:
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}/jobs.json"


def detail_url(board: str, job_id: str, base: str | None = None) -> str:
    return f"{(base or DEFAULT_BASE.replace('{board}', board)).rstrip('/')}/jobs/{job_id}"


def next_page(data, url: str) -> NextPage | None:
    """JSON Feed `next_url`, or JSON:API `links.next`."""
    if not isinstance(data, dict):
        return None
    links = data.get("links") if isinstance(data.get("links"), dict) else {}
    following = first(data.get("next_url"), links.get("next"))
    if isinstance(following, str) and following.strip() and following.strip() != url:
        return NextPage(url=urljoin(url, following.strip()))
    return None


class TeamtailorAdapter(AtsAdapter):
    parser_key = "teamtailor"
    parser_version = "1.1.0"  # 1.1: an archived job states it (closed_notice)
    hosts = HOSTS
    job_url = JOB_URL

    def is_payload(self, head: bytes) -> bool:
        return b"teamtailor" in head and (b'"careersite-job-url"' in head or b'"_jobposting"' in head)

    def read(self, data, url: str) -> ExtractionResult:
        if isinstance(data, dict) and isinstance(data.get("items"), list):  # the public JSON Feed
            feed_employer = clean_text(data.get("title"))
            jobs = [_feed_job(item, f"$.items[{i}]", feed_employer) for i, item in enumerate(data["items"])
                    if isinstance(item, dict)]
            return result(self, jobs, kind="listing", warnings=[], next_page=next_page(data, url))
        if isinstance(data, dict) and "data" in data:  # API v1 (JSON:API)
            included = _included(data.get("included"))
            if isinstance(data["data"], list):
                jobs = [_api_job(item, f"$.data[{i}]", included) for i, item in enumerate(data["data"])
                        if isinstance(item, dict)]
                return result(self, jobs, kind="listing", warnings=[], next_page=next_page(data, url))
            if isinstance(data["data"], dict):
                return result(self, [_api_job(data["data"], "$.data", included)], kind="detail", warnings=[])
        return failed(self, PayloadError("expected a JSON Feed (`items`) or a JSON:API `data` document"))


def _included(items) -> dict[tuple[str, str], dict]:
    return {(str(i.get("type")), str(i.get("id"))): i.get("attributes") or {}
            for i in as_list(items) if isinstance(i, dict) and isinstance(i.get("attributes"), dict)}


def _related(item: dict, name: str, included: dict) -> list[dict]:
    relationship = (item.get("relationships") or {}).get(name) if isinstance(item.get("relationships"), dict) else None
    data = relationship.get("data") if isinstance(relationship, dict) else None
    refs = data if isinstance(data, list) else [data] if isinstance(data, dict) else []
    return [included[(str(r.get("type")), str(r.get("id")))] for r in refs
            if isinstance(r, dict) and (str(r.get("type")), str(r.get("id"))) in included]


def _api_job(item: dict, path: str, included: dict) -> ExtractedJob:
    attributes = item.get("attributes") if isinstance(item.get("attributes"), dict) else {}
    links = item.get("links") if isinstance(item.get("links"), dict) else {}
    places = [join_place(p.get("city"), p.get("country")) or clean_text(p.get("name"))
              for p in _related(item, "locations", included) + _related(item, "location", included)]
    places = list(dict.fromkeys(p for p in places if p))
    external = clean_text(attributes.get("external-application-url"))
    return ats_job({
        "title": (clean_text(attributes.get("title"), 300), f"{path}.attributes.title"),
        "url": (clean_text(links.get("careersite-job-url")), f"{path}.links.careersite-job-url"),
        "apply_url": (first(external, clean_text(links.get("careersite-job-apply-url"))),
                      f"{path}.links.careersite-job-apply-url"),
        "external_id": (clean_text(item.get("id")), f"{path}.id"),
        "location": (places[0] if places else None, f"{path}.relationships.locations"),
        "remote": (REMOTE.get(str(attributes.get("remote-status") or "").lower()), f"{path}.attributes.remote-status"),
        "employment_type": (clean_text(attributes.get("employment-type")), f"{path}.attributes.employment-type"),
        "date_posted": (clean_text(first(attributes.get("start-date"), attributes.get("created-at"))),
                        f"{path}.attributes.created-at"),
        "valid_through": (clean_text(attributes.get("end-date")), f"{path}.attributes.end-date"),
        "description": (html_to_text(first(attributes.get("body"), attributes.get("pitch"))), f"{path}.attributes.body"),
        "closed_notice": (closed_state(attributes.get("status"), "status"),
                          f"{path}.attributes.status"),
    }, raw={"id": item.get("id"), "type": item.get("type"),
            **{k: v for k, v in attributes.items() if k not in ("body", "mailbox")}}, locations=places)


def _feed_job(item: dict, path: str, feed_employer: str | None) -> ExtractedJob:
    posting = item.get("_jobposting") if isinstance(item.get("_jobposting"), dict) else {}
    organisation = posting.get("hiringOrganization") if isinstance(posting.get("hiringOrganization"), dict) else {}
    places = []
    raw_places = posting.get("jobLocation")
    for place in raw_places if isinstance(raw_places, list) else [raw_places] if isinstance(raw_places, dict) else []:
        address = place.get("address") if isinstance(place, dict) and isinstance(place.get("address"), dict) else {}
        text = join_place(address.get("addressLocality"), address.get("addressRegion"), address.get("addressCountry"))
        if text and text not in places:
            places.append(text)
    salary = None
    band = posting.get("baseSalary") if isinstance(posting.get("baseSalary"), dict) else {}
    value = band.get("value") if isinstance(band.get("value"), dict) else {}
    if value.get("minValue") or value.get("maxValue") or value.get("value"):
        salary = (Salary(min=_number(first(value.get("minValue"), value.get("value"))),
                         max=_number(first(value.get("maxValue"), value.get("value"))),
                         currency=clean_text(band.get("currency")), unit=clean_text(value.get("unitText")),
                         raw=str(band)[:500]), f"{path}._jobposting.baseSalary")
    identifier = posting.get("identifier") if isinstance(posting.get("identifier"), dict) else {}
    url = clean_text(item.get("url"))
    match = JOB_URL.search(url or "")
    remote = "remote" if str(posting.get("jobLocationType") or "").upper() == "TELECOMMUTE" else None
    employment = posting.get("employmentType")
    return ats_job({
        "title": (clean_text(first(item.get("title"), posting.get("title")), 300), f"{path}.title"),
        "url": (url, f"{path}.url"),
        "apply_url": (url, f"{path}.url"),  # the job page holds the application form
        "external_id": (first(clean_text(identifier.get("value")), match.group("id") if match else None,
                              clean_text(item.get("id"))), f"{path}._jobposting.identifier.value"),
        "employer": (first(clean_text(organisation.get("name")), feed_employer), f"{path}._jobposting.hiringOrganization.name"),
        "location": (places[0] if places else None, f"{path}._jobposting.jobLocation"),
        "remote": (remote, f"{path}._jobposting.jobLocationType"),
        "employment_type": (", ".join(map(str, employment)) if isinstance(employment, list) else clean_text(employment),
                            f"{path}._jobposting.employmentType"),
        "date_posted": (clean_text(first(item.get("date_published"), posting.get("datePosted"))), f"{path}.date_published"),
        "valid_through": (clean_text(posting.get("validThrough")), f"{path}._jobposting.validThrough"),
        "description": (first(html_to_text(item.get("content_html")), clean_text(item.get("content_text"), 20000),
                              html_to_text(posting.get("description"))), f"{path}.content_html"),
    }, raw={k: v for k, v in item.items() if k not in ("content_html", "content_text", "_jobposting")},
        salary=salary, locations=places)


def _number(value) -> float | None:
    try:
        return float(value) if value not in (None, "") else None
    except (TypeError, ValueError):
        return None
