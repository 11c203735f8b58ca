"""A run's health figures, gathered from its responses and items: pure, no database."""

from __future__ import annotations

from collections import Counter

from gigflow.safety.guard import redact_url

# The job fields whose density (share of jobs that have them) is recorded and watched for drift.
DENSITY_FIELDS = ("title", "url", "location", "employment_type", "date_posted", "description", "apply_url",
                  "salary")
MAX_LISTED = 50  # pages without a job kept with their reason
MAX_JOB_LINKS = 5000  # job links kept per run (what a repair must reproduce)


def base_content_type(value: str | None) -> str:
    return (value or "none").split(";", 1)[0].strip().lower() or "none"


class HealthCollector:
    """Counts what one run saw. ``summary()`` is the JSON stored in run_health.health."""

    def __init__(self):
        self.pages = 0
        self.jobs = 0
        self.present: Counter[str] = Counter()
        self.confidences: list[float] = []
        self.without_job: list[dict] = []
        self.pages_without_job = 0
        self.job_links: set[str] = set()

    def add_job_link(self, url: str) -> None:
        """A job page the run asked for (a link a listing or sitemap yielded). Userinfo is never kept: a page
        may link to ``user:password@`` (such a link is refused, and its password must not be stored either)."""
        url = redact_url(url)
        if len(self.job_links) < MAX_JOB_LINKS:
            self.job_links.add(url)

    def add_item(self, item) -> None:
        self.pages += 1
        jobs = item.get("jobs") or []
        if not jobs:
            self.pages_without_job += 1
            if len(self.without_job) < MAX_LISTED:
                reason = "; ".join(item.get("warnings") or [])[:300] or "the adapters gave no reason"
                self.without_job.append({"url": redact_url(str(item.get("url"))), "reason": redact_url(reason)})
            return
        self.confidences.append(float(item.get("confidence") or 0.0))
        for job in jobs:
            self.jobs += 1
            for field in DENSITY_FIELDS:
                if job.get(field):
                    self.present[field] += 1

    def summary(self, statuses: dict[str, int], content_types: dict[str, int]) -> dict:
        """The run's figures; ``statuses`` and ``content_types`` are counted by the response middleware."""
        jobs = self.jobs
        return {
            "jobs": jobs,
            "pages": self.pages,
            "field_density": {f: round(self.present[f] / jobs, 3) for f in DENSITY_FIELDS} if jobs else {},
            "mean_confidence": round(sum(self.confidences) / len(self.confidences), 3) if self.confidences else None,
            "status_codes": statuses,
            "content_types": content_types,
            "pages_without_job": self.pages_without_job,
            "without_job": self.without_job,
            "job_links": sorted(self.job_links),
        }
