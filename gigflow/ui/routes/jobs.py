"""A job's page: its fields with their evidence, its history, its canonical job and its stored Markdown."""

from __future__ import annotations

from dataclasses import dataclass

from gigflow.ui import data, library
from gigflow.ui.context import UiContext
from gigflow.ui.render import display_value, evidence_highlights, render_markdown
from gigflow.ui.routes.basics import found


@dataclass(frozen=True)
class FieldRow:
    """One row of the fields table: the value as a person reads it, and how it was found (None: not recorded)."""

    name: str
    value: str
    evidence: dict | None


def job_page(ui: UiContext, request):
    job = found(data.job, ui.pool, request.path_params["job_id"])
    marks = evidence_highlights(job.fields, job.evidence)
    rows = [FieldRow(name=name, value=shown, evidence=job.evidence.get(name))
            for name, value in sorted(job.fields.items())
            if (shown := display_value(name, value)) is not None]  # an empty value is not a row
    link = data.job_canonical(ui.pool, job.id, ui.limits.events_shown)
    canonical = library.canonical_job(ui.pool, link.canonical_id) if link else None
    return ui.render(request, "job.html", {"job": job, "rows": rows,
                                           "markdown": render_markdown(job.markdown or "", marks),
                                           "events": data.job_events(ui.pool, job.id, ui.limits.events_shown),
                                           "link": link, "canonical": canonical})
