"""What the five public ATS adapters share: a job built from (value, JSON path) pairs, each with evidence."""

from __future__ import annotations

from typing import Any

from gigflow.adapters.common import PayloadError, bounded_raw
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


def looks_like_json(content: bytes | str) -> bool:
    head = (content[:64] if isinstance(content, bytes) else content[:64].encode()).lstrip(b"\xef\xbb\xbf \t\r\n")
    return head[:1] in (b"{", b"[")


__all__ = ["BASELINE", "PayloadError", "ats_job", "failed", "looks_like_json", "result"]
