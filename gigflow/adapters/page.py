"""A page's jobs as stored: the adapters' result joined with the document the page was prepared into.

One place for the crawl and for re-extraction, so a job read again from a stored page is the job it was when the
page was fetched (same description, same evidence)."""

from __future__ import annotations

import re

from gigflow.adapters.generic.text import is_section_heading
from gigflow.adapters.types import Evidence, ExtractionResult, ExtractedJob
from gigflow.documents.sniff import sniff_format
from gigflow.documents.types import PreparationReport, PreparedDocument

# As long as the generic adapter's description: a page's whole text is not a field.
MAX_DESCRIPTION_CHARS = 20000


def page_jobs(result: ExtractionResult, document: PreparedDocument | None) -> list[ExtractedJob]:
    """The result's jobs; a job's own HTML page (one job, a detail page) takes its description from the prepared
    document: assets, job cards and the site's learned noise already out, as the stored Markdown."""
    jobs = list(result.jobs)
    if result.kind == "detail" and len(jobs) == 1:
        jobs = [prepared_description(prepared_title(jobs[0], document), document)]
    return jobs


def prepared_title(job: ExtractedJob, document: PreparedDocument | None) -> ExtractedJob:
    """A title read from a heading that the site's learned noise filter removed as template (a header's "Acme"
    above every posting) is the site's, not the job's: the first heading of the prepared page is, where it has one
    that names no section."""
    evidence = job.evidence.get("title")
    if document is None or not job.title or evidence is None or evidence.method != "heading":
        return job
    removed = [step.text for step in document.report.steps
               if step.rule == "noise-filter" and step.action == "removed" and job.title in step.text]
    headings = _heading_lines(document.markdown) if removed else []
    if not headings or job.title in headings:
        return job
    heading = next((text for text in headings if not is_section_heading(text)), None)
    if heading is None:
        return job
    return job.model_copy(update={"title": heading, "evidence": {**job.evidence, "title": Evidence(
        method="prepared", confidence=0.55,
        snippet_or_path=f"the prepared page's first heading; {job.title!r} went with the site's template")}})


_HEADING = re.compile(r"#{1,6}\s")


def _heading_lines(markdown: str) -> list[str]:
    """The Markdown's headings' texts, their marks and escapes dropped. Read with string methods: a hostile line's
    runs of spaces cost linear time."""
    found = []
    for line in markdown.splitlines()[:400]:
        if _HEADING.match(line):
            heading = " ".join(line.lstrip("#").strip().rstrip("#").replace("\\", "").replace("**", "").split())
            if heading:
                found.append(heading)
    return found


def prepared_description(job: ExtractedJob, document: PreparedDocument | None) -> ExtractedJob:
    """Other formats (and pages that could not be prepared) keep the adapter's description."""
    if document is None or document.format != "html" or not document.markdown.strip():
        return job
    evidence = {**job.evidence, "description": Evidence(
        method="prepared", confidence=0.6,
        snippet_or_path=f"prepared document (noise filter {document.report.noise_filter or 'none'})")}
    return job.model_copy(update={"description": document.markdown.strip()[:MAX_DESCRIPTION_CHARS],
                                  "evidence": evidence})


def stored_document(row, url: str) -> PreparedDocument | None:
    """A stored version (a row with body, content_type, markdown, preparation attributes) as the document it was
    prepared into; None when it has no Markdown."""
    if not row.markdown:
        return None
    return PreparedDocument(markdown=row.markdown,
                            format=sniff_format(bytes(row.body), url, row.content_type),
                            report=PreparationReport.model_validate(row.preparation or {}))
