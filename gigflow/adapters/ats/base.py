"""What the five public ATS adapters share: the supports/extract skeleton (AtsAdapter and its hooks) and a job
built from (value, JSON path) pairs, each with evidence."""

from __future__ import annotations

import re
from typing import Any

from gigflow.adapters.ats.board import board_candidates
from gigflow.adapters.common import PayloadError, bounded_raw, host_matches, load_json
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult, NextPage, Salary

BASELINE = 0.90
# Fields whose absence lowers a job's share of the extraction confidence.
WEIGHTED = {"employer": 0.05, "location": 0.03, "description": 0.02}


def ats_job(fields: dict[str, tuple[Any, str]], *, raw: Any, salary: tuple[Salary, str] | None = None,
            locations: list[str] | None = None) -> ExtractedJob:
    """An ExtractedJob from `{field: (value, json_path)}`; every present field carries ats-json evidence."""
    values = {name: value for name, (value, _) in fields.items() if value not in (None, "", [])}
    job = ExtractedJob(title=values.pop("title", "") or "", **values)
    if locations:
        job.locations = locations
    if salary:
        job.salary = salary[0]
    evidence = {name: Evidence(method="ats-json", snippet_or_path=path[:500], confidence=BASELINE)
                for name, (value, path) in fields.items() if value not in (None, "", [])}
    if salary:
        evidence["salary"] = Evidence(method="ats-json", snippet_or_path=salary[1], confidence=BASELINE)
    job.evidence = evidence
    job.raw = bounded_raw(raw) if isinstance(raw, dict) else {}
    return job


def result(adapter, jobs: list[ExtractedJob], *, kind: str, warnings: list[str],
           next_page: NextPage | None = None) -> ExtractionResult:
    """Keep storable jobs only (warning about the rest); confidence drops for missing employer etc."""
    kept = []
    for index, job in enumerate(jobs):
        if job.is_storable():
            kept.append(job)
        else:
            warnings.append(f"job {index}: dropped, no title or no http(s) URL / external id")
    confidence = 0.0
    if kept:
        missing = sum(weight for field, weight in WEIGHTED.items()
                      if sum(1 for job in kept if getattr(job, field)) < len(kept))
        confidence = round(BASELINE - missing, 3)
    return ExtractionResult(jobs=kept, parser_key=adapter.parser_key, parser_version=adapter.parser_version,
                            confidence=confidence, warnings=warnings, kind=kind, next_page=next_page)


def failed(adapter, error: Exception) -> ExtractionResult:
    return ExtractionResult(parser_key=adapter.parser_key, parser_version=adapter.parser_version,
                            warnings=[f"{adapter.parser_key}: {error}"])


class AtsAdapter:
    """One provider: its hosts, its board's job-link pattern and two hooks. ``is_payload(head)``: the first bytes
    of a JSON body are this provider's although served from another host; ``read(data, url)``: the parsed
    JSON's ExtractionResult. An HTML body is the provider's hosted board: its job links are the jobs."""

    parser_key: str = ""
    parser_version = "1.0.0"
    hosts: tuple[str, ...] = ()
    job_url: re.Pattern

    def is_payload(self, head: bytes) -> bool:
        raise NotImplementedError

    def read(self, data: Any, url: str) -> ExtractionResult:
        raise NotImplementedError

    def supports(self, url: str, content: bytes | str) -> bool:
        if host_matches(url, *self.hosts):
            return True
        head = content[:20000] if isinstance(content, bytes) else content[:20000].encode()
        return looks_like_json(content) and self.is_payload(head)

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult:
        if not looks_like_json(content):
            jobs = board_candidates(content, url=url, job_url=self.job_url, hosts=self.hosts)
            return result(self, jobs, kind="listing",
                          warnings=[] if jobs else [f"{self.parser_key} board: no job links"])
        try:
            data = load_json(content)
        except PayloadError as exc:
            return failed(self, exc)
        return self.read(data, url)


def looks_like_json(content: bytes | str) -> bool:
    head = (content[:64] if isinstance(content, bytes) else content[:64].encode()).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"{", b"[")


__all__ = ["BASELINE", "AtsAdapter", "PayloadError", "ats_job", "failed", "looks_like_json", "result"]
