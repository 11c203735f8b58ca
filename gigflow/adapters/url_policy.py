"""The last steps of extraction: a job or apply URL the fetch guard would refuse is dropped, and control
characters (NUL cannot be stored) leave every extracted string.

Checked without DNS (extraction stays pure): scheme, credentials, denied names, IP literals and ``localhost``,
with FETCH_ALLOWED_PRIVATE_HOSTS and FETCH_DENIED_HOSTS as the crawl uses them. A job left with neither a URL
nor an external id is dropped whole. Each drop is a warning naming the job, the field and the reason (the URL
with any userinfo redacted).
"""

from __future__ import annotations

from gigflow.adapters.types import ExtractionResult
from gigflow.safety.guard import FetchGuard, UnsafeURL, canonical_url

URL_FIELDS = ("url", "apply_url")


def apply_url_policy(result: ExtractionResult, guard: FetchGuard) -> ExtractionResult:
    jobs, warnings = [], list(result.warnings)
    for job in result.jobs:
        update = {}
        for name in URL_FIELDS:
            value = getattr(job, name)
            if not value:
                continue
            try:
                guard.check_static(canonical_url(value))
            except UnsafeURL as exc:
                warnings.append(f"job {job.title!r}: {name} {exc.url} dropped: {exc.reason}")
                update[name] = None
        if update:
            evidence = {k: v for k, v in job.evidence.items() if k not in update}
            job = job.model_copy(update={**update, "evidence": evidence})
            if not job.url and not job.external_id:
                warnings.append(f"job {job.title!r} dropped: no URL the policy admits and no external id")
                continue
        jobs.append(job)
    if len(jobs) == len(result.jobs) and len(warnings) == len(result.warnings):
        return result
    return result.model_copy(update={"jobs": jobs, "warnings": warnings})


# NUL cannot be stored in PostgreSQL text or jsonb; the other C0 controls (but tab and newlines) and DEL are
# invisible noise from broken pages. Removed from every extracted string before anything is stored.
_CONTROL_CHARACTERS = dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def _clean(value):
    if isinstance(value, str):
        return value.translate(_CONTROL_CHARACTERS)
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def without_control_characters(result: ExtractionResult) -> ExtractionResult:
    """The result with control characters removed from every string of every job (and the warnings)."""
    dumped = result.model_dump()
    cleaned = _clean(dumped)
    return result if cleaned == dumped else ExtractionResult.model_validate(cleaned)
