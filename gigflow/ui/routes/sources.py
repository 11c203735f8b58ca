"""The sources table, a source's page and its status actions (what `scrapy sources ...` does)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from gigflow.ui import data, library
from gigflow.ui.context import UiContext
from gigflow.ui.render import runs_chart
from gigflow.ui.routes.basics import acted, action_answer, checked_form, found


def sources_table(ui: UiContext, request):
    status = request.query_params.get("status") or None
    if status is not None and status not in data.SOURCE_STATUSES:
        raise HTTPException(400, f"unknown status {status!r}: one of {', '.join(data.SOURCE_STATUSES)}")
    text, after = request.query_params.get("q", ""), request.query_params.get("after")
    page_size = ui.limits.page_size
    page = data.sources_page(ui.pool, status=status, text=text, after=after, limit=page_size)
    rows = library.sources_health(ui.pool, page)
    context = {"rows": rows, "status": status or "", "q": text, "after": after, "statuses": data.SOURCE_STATUSES,
               "next_after": rows[-1].id if len(rows) == page_size else None}
    partial_rows = request.headers.get("hx-request") == "true" and request.headers.get("hx-target") == "source-rows"
    return ui.render(request, "sources_rows.html" if partial_rows else "sources.html", context)


def source_page(ui: UiContext, request):
    source = found(data.source, ui.pool, request.path_params["source_id"])
    runs = [replace(run, health=library.run_health_label(run.outcome, run.drift) if run.finished_at else "running")
            for run in data.source_runs(ui.pool, source.id, ui.limits.runs_shown)]
    health = library.source_health(ui.pool, source.id, runs=1, events=ui.limits.events_shown)
    last = health["runs"][0] if health["runs"] else None
    return ui.render(request, "source.html", {
        "source": source, "runs": runs, "chart": runs_chart(runs),
        "jobs": data.source_jobs(ui.pool, source.id, ui.limits.jobs_shown),
        "noise": noise_summary(source.noise_filter, source.config_hash), "jobs_shown": ui.limits.jobs_shown,
        "policy": health["policy"], "history": health["history"], "ats_hint": health.get("ats_hint"),
        "health": library.run_health_label(last["outcome"], last["drift"]) if last else "never run"})


async def promote(ui: UiContext, request):
    return await _status_action(ui, request, library.promote_source)


async def quarantine(ui: UiContext, request):
    return await _status_action(ui, request, library.quarantine_source)


async def restore(ui: UiContext, request):
    return await _status_action(ui, request, library.restore_source)


async def record_policy_review(ui: UiContext, request):
    return await _status_action(ui, request, partial(library.record_policy_review, settings=ui.settings))


async def _status_action(ui: UiContext, request, action):
    """``action(pool, source_id, reason)``: the form's reason (the policy note for a policy review) goes with it."""
    form = await checked_form(request)
    source_id = request.path_params["source_id"]
    await run_in_threadpool(found, data.source, ui.pool, source_id)
    message = await run_in_threadpool(acted, action, ui.pool, source_id, form.get("reason", "")[:1000])
    return action_answer(ui, request, message, form.get("next") or f"/sources/{source_id}")


@dataclass(frozen=True)
class NoiseSummary:
    """The source page's line about its configuration's learned filter."""

    remove: int
    keep: int
    manual: int  # rules a person decided (flipped in the noise review)
    classifiers: list[str]
    completed_at: datetime | str | None
    samples: int
    current: bool  # learned for the configuration's present hash, so applied


def noise_summary(raw, config_hash: str) -> NoiseSummary | None:
    if not isinstance(raw, dict):
        return None
    rules = raw.get("rules") or []
    return NoiseSummary(remove=sum(r.get("decision") == "remove" for r in rules),
                        keep=sum(r.get("decision") == "keep" for r in rules),
                        manual=sum(r.get("classifier") == library.MANUAL_CLASSIFIER for r in rules),
                        classifiers=sorted({r.get("classifier", "?") for r in rules}),
                        completed_at=raw.get("completed_at"), samples=len(raw.get("samples") or []),
                        current=raw.get("config_hash") == config_hash)
