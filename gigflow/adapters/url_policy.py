"""The URL policy's last step in extraction: a job or apply URL the fetch guard would refuse is dropped.

Checked without DNS (extraction stays pure): scheme, credentials, denied names, IP literals and ``localhost``,
with FETCH_ALLOWED_PRIVATE_HOSTS and FETCH_DENIED_HOSTS as the crawl uses them. A job left with neither a URL
nor an external id is dropped whole. Each drop is a warning naming the job, the field and the reason (the URL
with any userinfo redacted).
"""

from __future__ import annotations

from gigflow.adapters.types import ExtractionResult
from gigflow.politeness.safety import FetchGuard, UnsafeURL, canonical_url

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
