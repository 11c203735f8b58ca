"""JSON-LD against the visible page: disagreements are evidence, not noise. Pure.

The visible value wins where the JSON-LD one is implausible or thin: a location that is only a country while the
page names the city (or none at all), an apply URL that is the page itself (or missing)
while the page links to an apply form, a salary without an amount while the page shows one, a posting date that
cannot be read or lies after the fetch. Otherwise JSON-LD is kept. Either way both values are recorded (the
field's evidence and `raw["disagreements"]`) and the field's and the result's confidence drop.
"""

from __future__ import annotations

from datetime import datetime

from gigflow.adapters.common import host_of
from gigflow.adapters.dates import normalise_date
from gigflow.adapters.gazetteer import is_region_only, place_score
from gigflow.adapters.jsonld import empty_salary
from gigflow.adapters.types import Evidence, ExtractedJob, ExtractionResult

DISAGREEMENT_PENALTY = 0.05


def _same_page(a: str | None, b: str | None) -> bool:
    return (a or "").split("#")[0].rstrip("/") == (b or "").split("#")[0].rstrip("/")


def reconcile(result: ExtractionResult, page, *, url: str, fetched_at: datetime | None = None) -> ExtractionResult:
    """`page` is the generic adapter's reading of the same HTML (`generic.read_page`)."""
    if len(result.jobs) != 1 or page is None:
        return result
    job = result.jobs[0]
    disagreements = 0
    visible_apply = page.apply_url()
    if visible_apply and not _same_page(visible_apply[0], job.apply_url):
        if not job.apply_url or _same_page(job.apply_url, job.url) or _same_page(job.apply_url, url):
            # The page's apply link is the apply URL. Only one to another site (an ATS form) makes JSON-LD's
            # "apply here" implausible enough to count as a disagreement.
            external = host_of(visible_apply[0]) != host_of(url)
            previous = job.apply_url
            counted = _record(job, "apply_url", previous if external else None, visible_apply, keep_visible=True,
                              why="JSON-LD gives the page itself")
            if not external and previous:
                job.raw.setdefault("disagreements", {})["apply_url"] = {"jsonld": previous[:300],
                                                                        "visible": visible_apply[0][:300]}
            disagreements += counted
    visible_salary = page.salary()
    if visible_salary and visible_salary[0].raw:
        # The salary as the page shows it, beside JSON-LD's numbers (which stay unless they lack an amount).
        job.salary_text = visible_salary[0].raw[:300]
        job.evidence["salary_text"] = visible_salary[1]
    if visible_salary and job.salary is not None and job.salary.min is None and job.salary.max is None and \
            (visible_salary[0].min is not None or visible_salary[0].max is not None):
        salary, evidence = visible_salary
        disagreements += _record(job, "salary", job.salary.raw, (salary, evidence), keep_visible=True,
                                 why="JSON-LD salary has no amount", shown=salary.raw)
    if job.salary is not None and empty_salary(job.salary):
        # A plugin's empty template ("value": "", only the currency) that the page's own salary did not replace
        job.salary = None
        job.evidence.pop("salary", None)
    if not job.valid_through:
        visible_closing = page.valid_through()
        if visible_closing:
            job.valid_through, job.evidence["valid_through"] = visible_closing
    if not job.closed_notice:
        notice = page.closed_notice()
        if notice:
            job.closed_notice, job.evidence["closed_notice"] = notice
    visible_location = page.location()
    if visible_location and visible_location[0] != job.location and (
            not job.location or (is_region_only(job.location) and place_score(visible_location[0]) > 0
                                 and not is_region_only(visible_location[0]))):
        # JSON-LD without a place, or with a country alone ("US") where the page names the city: the page's.
        disagreements += _record(job, "location", job.location, visible_location, keep_visible=True,
                                 why="JSON-LD names only a country or region")
    visible_date = page.date_posted()
    # A JSON-LD date that normalisation refused (unreadable, after the fetch) is still the JSON-LD's claim.
    claimed = job.date_posted or job.raw.get("date_posted_text")
    if visible_date and claimed and visible_date[0][:10] != str(claimed)[:10]:
        readable = normalise_date(claimed, fetched_at=fetched_at)
        disagreements += _record(job, "date_posted", claimed, visible_date, keep_visible=readable is None,
                                 why="JSON-LD date unreadable or after the fetch" if readable is None else None)
    if not disagreements:
        return result
    confidence = max(0.0, round(result.confidence - DISAGREEMENT_PENALTY * disagreements, 3))
    return result.model_copy(update={"confidence": confidence})


def _record(job: ExtractedJob, field: str, jsonld_value, visible: tuple, *, keep_visible: bool,
            why: str | None, shown=None) -> int:
    """Record both values; take the visible one when asked. Returns 1 for a disagreement, 0 for a plain fill."""
    value, visible_evidence = visible
    if jsonld_value in (None, ""):
        setattr(job, field, value)
        job.evidence[field] = visible_evidence
        return 0
    job.raw.setdefault("disagreements", {})[field] = {"jsonld": str(jsonld_value)[:300],
                                                      "visible": str(shown or value)[:300]}
    kept = "visible" if keep_visible else "JSON-LD"
    note = f"JSON-LD {str(jsonld_value)[:120]!r} vs visible {str(shown or value)[:120]!r} " \
           f"({visible_evidence.snippet_or_path[:150]}); kept {kept}{': ' + why if why else ''}"
    if keep_visible:
        setattr(job, field, value)
        method, confidence = visible_evidence.method, min(visible_evidence.confidence, 0.6)
    else:
        previous = job.evidence.get(field)
        method, confidence = (previous.method if previous else "jsonld"), 0.6
    job.evidence[field] = Evidence(method=method, snippet_or_path=note[:500], confidence=confidence)
    return 1
