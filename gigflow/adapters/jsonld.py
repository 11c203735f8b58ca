"""JSON-LD JobPosting: parsed per script, so one broken script never hides the others."""

from __future__ import annotations

import html
import json
import math
import re
from typing import Any


from gigflow.adapters.common import development_host_elsewhere, html_to_text, url_host
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult, Salary

_SCRIPT = re.compile(rb"<script[^>]*type\s*=\s*[\"']?application/ld\+json[\"']?[^>]*>(.*?)</script\s*>", re.I | re.S)
_COMMENTS = re.compile(r"^\s*(<!--|//.*$)|-->\s*$", re.M)
_CDATA = re.compile(r"<!\[CDATA\[|\]\]>")
_BLOCK_COMMENT_EDGES = re.compile(r"^\s*/\*.*?\*/|/\*.*?\*/\s*$", re.S)
BASELINE = 0.95


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, list):
        value = next((v for v in value if v), None)
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value") or value.get("value")
    if value is None:
        return None
    text = " ".join(html.unescape(str(value)).split())
    if "<" in text and ">" in text:  # markup in a plain field (an injected tag) is dropped, its text kept
        text = " ".join((html_to_text(text[:100_000]) or "").split())
    return text[:2000] or None


def load_json_lenient(raw: str) -> Any:
    """json.loads after removing comments, CDATA and trailing junk such as `;` or a stray `}`."""
    text = _CDATA.sub("", _COMMENTS.sub("", raw)).strip()
    # `/*<![CDATA[*/ ... /*]]>*/` wrappers: block comments at either edge only, never inside the JSON.
    previous = None
    while previous != text:
        previous, text = text, _BLOCK_COMMENT_EDGES.sub("", text).strip()
    text = text.rstrip(";").strip()
    try:
        return json.loads(text, strict=False)
    except json.JSONDecodeError:
        decoder = json.JSONDecoder(strict=False)
        value, _ = decoder.raw_decode(text)
        return value


def _walk(node: Any):
    if isinstance(node, list):
        for item in node:
            yield from _walk(item)
    elif isinstance(node, dict):
        yield node
        for key in ("@graph", "mainEntity", "itemListElement", "item"):
            if key in node:
                yield from _walk(node[key])


def _is_job_posting(node: dict) -> bool:
    types = node.get("@type")
    types = types if isinstance(types, list) else [types]
    return any(isinstance(t, str) and t.split("/")[-1] == "JobPosting" for t in types)


def _location(node: dict) -> list[str]:
    places = node.get("jobLocation") or []
    places = places if isinstance(places, list) else [places]
    result = []
    for place in places:
        if isinstance(place, str):
            result.append(place)
            continue
        if not isinstance(place, dict):
            continue
        address = place.get("address") or {}
        if isinstance(address, str):
            result.append(address)
            continue
        parts = [_text(address.get(k)) for k in ("addressLocality", "addressRegion", "addressCountry")]
        text = ", ".join(p for p in parts if p) or _text(place.get("name"))
        if text:
            result.append(text)
    return result


def _applicant_places(node: dict) -> list[str]:
    """Where a remote job's applicants may live (``applicantLocationRequirements``: "Pakistan", "EU")."""
    places = node.get("applicantLocationRequirements") or []
    places = places if isinstance(places, list) else [places]
    return [name for name in (_text(p.get("name") if isinstance(p, dict) else p) for p in places) if name]


def _salary(node: dict) -> Salary | None:
    base = node.get("baseSalary") or node.get("estimatedSalary")
    if isinstance(base, list):
        base = base[0] if base else None
    if base is None:
        return None
    if not isinstance(base, dict):
        return Salary(raw=str(base))
    value = base.get("value")
    salary = Salary(currency=_text(base.get("currency")), raw=json.dumps(base, ensure_ascii=False)[:500])
    if isinstance(value, dict):
        salary.min = _number(value.get("minValue", value.get("value")))
        salary.max = _number(value.get("maxValue", value.get("value")))
        salary.unit = _text(value.get("unitText"))
    else:
        salary.min = salary.max = _number(value)
    salary.unit = salary.unit or _text(base.get("unitText"))
    if not any(amount for amount in (salary.min, salary.max)) and (salary.min is not None or salary.max is not None):
        return None  # "value": "0": a template's placeholder, no pay stated
    return salary


def empty_salary(salary: Salary) -> bool:
    """A JSON-LD baseSalary with neither an amount nor words ("value": "": a job plugin's empty template)."""
    if salary.min is not None or salary.max is not None or not (salary.raw or "").startswith("{"):
        return False
    try:
        value = json.loads(salary.raw).get("value")
    except (ValueError, AttributeError):
        return False
    inner = value.get("value") if isinstance(value, dict) else value
    # nothing, or a string with neither words nor figures; a list or an object is a shape not read, not nothing
    return inner is None or (isinstance(inner, str) and not re.search(r"[^\W_]", inner))


def _number(value: Any) -> float | None:
    try:
        number = float(str(value).replace(",", "")) if value not in (None, "") else None
    except ValueError:
        return None
    return number if number is None or math.isfinite(number) else None  # NaN, Infinity, 1e999: no number


def _description(value: Any) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if v), None)
    if value is None or isinstance(value, dict):
        return None
    return html_to_text(str(value), entity_encoded=True)


class JsonLdAdapter:
    parser_key = "jsonld"
    # 1.2.1: a baseSalary without an amount or words ("value": "") that the page's own salary does not replace is
    # no salary (reconcile); 1.2.0: a posting's url on a development build's host ("http://localhost:4000/...")
    # gives way to the page's
    parser_version = "1.2.1"

    def supports(self, url: str, content: bytes | str) -> bool:
        data = content.encode("utf-8", "replace") if isinstance(content, str) else content
        return bool(_SCRIPT.search(data)) and b"JobPosting" in data

    def postings(self, content: bytes | str) -> tuple[list[tuple[int, dict]], list[str]]:
        data = content.encode("utf-8", "replace") if isinstance(content, str) else content
        found, warnings = [], []
        for index, match in enumerate(_SCRIPT.finditer(data)):
            raw = match.group(1).decode("utf-8", "replace")
            try:
                payload = load_json_lenient(raw)
            except (ValueError, RecursionError) as exc:
                warnings.append(f"jsonld script {index}: unreadable JSON ({exc.__class__.__name__}: {exc})")
                continue
            found.extend((index, node) for node in _walk(payload) if _is_job_posting(node))
        return found, warnings

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult:
        postings, warnings = self.postings(content)
        jobs = [self._job(node, index, url) for index, node in postings]
        jobs = [job for job in jobs if job.is_storable()]
        # A perfect title does not make a missing employer reliable: absent fields lower the whole result.
        missing = sum(weight for field, weight in (("employer", 0.05), ("location", 0.03), ("description", 0.02))
                      if any(not getattr(job, field) for job in jobs))
        return ExtractionResult(jobs=jobs, parser_key=self.parser_key, parser_version=self.parser_version,
                                confidence=round(BASELINE - missing, 3) if jobs else 0.0, warnings=warnings,
                                kind="listing" if len(jobs) > 1 else "detail")

    def _job(self, node: dict, index: int, page_url: str) -> ExtractedJob:
        def ev(path: str, confidence: float = BASELINE) -> Evidence:
            return Evidence(method="jsonld", snippet_or_path=f"script[{index}].{path}", confidence=confidence)

        org = node.get("hiringOrganization")
        remote = str(node.get("jobLocationType", "")).upper() == "TELECOMMUTE"
        locations = _location(node)
        applicants = _applicant_places(node) if remote and not locations else []
        identifier = node.get("identifier")
        external_id = _text(identifier.get("value") if isinstance(identifier, dict) else identifier)
        stated = _text(node.get("url"))
        if stated and (url_host(stated) is None or development_host_elsewhere(stated, page_url)):
            stated = None  # no URL ("http://[bad") or a development build's ("http://localhost:4000/jobs/x"): the page's
        job = ExtractedJob(
            title=_text(node.get("title")) or "",
            url=stated or page_url,
            external_id=external_id,
            employer=_text(org),
            location=(locations or applicants or [None])[0],
            locations=locations or applicants,
            remote="remote" if remote else None,
            salary=_salary(node),
            employment_type=_text(node.get("employmentType")),
            date_posted=_text(node.get("datePosted")),
            valid_through=_text(node.get("validThrough")),
            description=_description(node.get("description")),
            requirements=_description(node.get("qualifications") or node.get("experienceRequirements")
                                      or node.get("skills")),
            apply_url=_text(node.get("directApply") if isinstance(node.get("directApply"), str) else None)
            or stated,
            raw={k: node[k] for k in list(node)[:40] if k != "description"},
        )
        place = "applicantLocationRequirements" if applicants else "jobLocation"
        paths = {"title": "title", "url": "url", "external_id": "identifier", "employer": "hiringOrganization",
                 "location": place, "locations": place,
                 "remote": "jobLocationType", "salary": "baseSalary", "employment_type": "employmentType",
                 "date_posted": "datePosted", "valid_through": "validThrough", "description": "description",
                 "requirements": next((k for k in ("qualifications", "experienceRequirements", "skills")
                                       if node.get(k)), "qualifications"),
                 "apply_url": "url"}
        job.evidence = {field: ev(path) for field, path in paths.items() if getattr(job, field)}
        if not stated:
            job.evidence["url"] = Evidence(method="meta", snippet_or_path="page url", confidence=0.8)
        return job
