"""The review app's routes: parse the request, call data/library functions, render a template. No rules here."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from gigflow.ui import data, library
from gigflow.ui.annotate import annotate
from gigflow.ui.render import display_value, evidence_highlights, group_rules, line_diff, render_markdown, runs_chart
from gigflow.ui.security import CSRF_FIELD, STORED_PAGE_CSP, GuardMiddleware, csrf_ok, display_guard, server_error

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.finalize = display_guard
templates.env.filters["pretty_json"] = lambda value: json.dumps(value, indent=2, ensure_ascii=False, default=str)
templates.env.filters["display_value"] = lambda value, name="": display_value(name, value) or ""


def create_app(settings, *, token: str = "", allowed_hosts: list[str] | None = None) -> Starlette:
    """The ASGI app over the configured database. ``settings``: Scrapy settings (limits, page sizes)."""
    page_size = settings.getint("LISTING_PAGE_SIZE")
    runs_shown, jobs_shown = settings.getint("UI_RUNS_SHOWN"), settings.getint("UI_JOBS_SHOWN")
    events_shown = settings.getint("UI_EVENTS_SHOWN")
    max_filter_bytes = settings.getint("NOISE_FILTER_MAX_BYTES")
    max_page_bytes = settings.getint("PREPARATION_MAX_BYTES")

    def _sample(configuration_id: int, version_id: int) -> dict:
        version = _found(data.sample_version, configuration_id, version_id)
        if max_page_bytes and len(version["body"]) > max_page_bytes:
            # Crawls store such a page as plain text, without the noise filter: there is nothing to outline.
            raise HTTPException(422, f"version {version_id} is {len(version['body'])} bytes, over "
                                     f"PREPARATION_MAX_BYTES ({max_page_bytes}): prepared as plain text, no regions")
        return version

    def render(request, name: str, context: dict, status_code: int = 200):
        return templates.TemplateResponse(request, name, {"csrf": request.state.csrf, "csrf_field": CSRF_FIELD,
                                                          **context}, status_code=status_code)

    def sources(request):
        status = request.query_params.get("status") or None
        if status is not None and status not in data.SOURCE_STATUSES:
            raise HTTPException(400, f"unknown status {status!r}: one of {', '.join(data.SOURCE_STATUSES)}")
        text, after = request.query_params.get("q", ""), request.query_params.get("after")
        rows = library.sources_health(data.sources_page(status=status, text=text, after=after, limit=page_size))
        context = {"rows": rows, "status": status or "", "q": text, "after": after, "statuses": data.SOURCE_STATUSES,
                   "next_after": rows[-1]["id"] if len(rows) == page_size else None}
        partial = request.headers.get("hx-request") == "true" and request.headers.get("hx-target") == "source-rows"
        return render(request, "sources_rows.html" if partial else "sources.html", context)

    def source_page(request):
        source = _found(data.source, request.path_params["source_id"])
        runs = data.source_runs(source["id"], runs_shown)
        for run in runs:
            run["health"] = library.run_health_label(run["outcome"], run["drift"]) if run["finished_at"] else "running"
        health = library.source_health(source["id"], runs=1, events=events_shown)
        return render(request, "source.html", {
            "source": source, "runs": runs, "chart": runs_chart(runs), "jobs": data.source_jobs(source["id"], jobs_shown),
            "noise": _noise_summary(source["noise_filter"], source["config_hash"]), "jobs_shown": jobs_shown,
            "policy": health["policy"], "history": health["history"], "ats_hint": health.get("ats_hint"),
            "health": library.run_health_label(health["runs"][0]["outcome"], health["runs"][0]["drift"])
            if health["runs"] else "never run"})

    def job_page(request):
        job = _found(data.job, request.path_params["job_id"])
        marks = evidence_highlights(job["fields"], job["evidence"])
        rows = [{"name": name, "value": shown, "evidence": job["evidence"].get(name)}
                for name, value in sorted(job["fields"].items())
                if (shown := display_value(name, value)) is not None]  # an empty value is not a row
        link = data.job_canonical(job["id"], events_shown)
        canonical = library.canonical_job(link["canonical_id"]) if link else None
        return render(request, "job.html", {"job": job, "rows": rows,
                                            "markdown": render_markdown(job["markdown"] or "", marks),
                                            "events": data.job_events(job["id"], events_shown),
                                            "link": link, "canonical": canonical})

    def noise_page(request):
        configuration_id = request.path_params["configuration_id"]
        configuration = _found(data.configuration, configuration_id)
        return render(request, "noise.html", _noise_context(configuration, request.query_params.get("version")))

    def _noise_context(configuration, version_param, message: str = "") -> dict:
        configuration_id = configuration["id"]
        state, noise_filter = library.current_filter(configuration_id, max_filter_bytes)
        samples = [s.source_version_id for s in (noise_filter.samples if noise_filter else [])
                   if s.source_version_id] or [s.source_version_id for s in library.sample_refs(configuration_id)]
        version_id = _int(version_param) if version_param else (samples[0] if samples else None)
        context = {"configuration": configuration, "filter": noise_filter, "token": state.token, "samples": samples,
                   "groups": group_rules(noise_filter.rules) if noise_filter else [],
                   "version_id": version_id, "matches": {}, "diff": [], "message": message, "version": None}
        if version_id is None:
            return context
        version = _sample(configuration_id, version_id)
        body, strategy = bytes(version["body"]), state.card_strategy()
        rules = noise_filter.rules if noise_filter else []
        _, matches = annotate(library.prepared_tree(body, version["url"], version["content_type"], strategy), rules,
                              library.select_regions)
        before = library.prepare_markdown(settings, body, version["url"], version["content_type"], strategy, None)
        after = library.prepare_markdown(settings, body, version["url"], version["content_type"], strategy,
                                         noise_filter)
        diff = line_diff(before, after)
        context.update(version=version, matches={m.index: m for m in matches}, diff=diff,
                       removed=sum(kind == "removed" for kind, _ in diff))
        return context

    def stored_page(request):
        configuration_id, version_id = request.path_params["configuration_id"], request.path_params["version_id"]
        version = _sample(configuration_id, version_id)
        state, noise_filter = library.current_filter(configuration_id, max_filter_bytes)
        root = library.prepared_tree(bytes(version["body"]), version["url"], version["content_type"],
                                     state.card_strategy())
        page, _ = annotate(root, noise_filter.rules if noise_filter else [], library.select_regions)
        return HTMLResponse(page, headers={"Content-Security-Policy": STORED_PAGE_CSP,
                                           "X-Frame-Options": "SAMEORIGIN", "Cache-Control": "no-store"})

    async def flip(request):
        form = await _checked_form(request)
        configuration_id = request.path_params["configuration_id"]
        configuration = await run_in_threadpool(_found, data.configuration, configuration_id)
        try:
            decision, _ = await run_in_threadpool(
                library.flip_decision, configuration_id, selector=form.get("selector", ""),
                signature=form.get("signature", ""), expected_token=_int(form.get("token")),
                note=form.get("note", "")[:300], max_bytes=max_filter_bytes)
            message = f"saved: {form.get('selector')} is now {decision} (manual review)"
        except library.ActionError as exc:
            message = str(exc)
        if request.headers.get("hx-request") != "true":
            return RedirectResponse(f"/configurations/{configuration_id}/noise", status_code=303)
        context = await run_in_threadpool(_noise_context, configuration, form.get("version"), message)
        return render(request, "noise_rules.html", context)

    async def request_review(request):
        await _checked_form(request)
        configuration_id = request.path_params["configuration_id"]
        await run_in_threadpool(_found, data.configuration, configuration_id)
        message = await run_in_threadpool(library.request_noise_review, configuration_id)
        return _action_answer(request, message, f"/configurations/{configuration_id}/noise", refresh=False)

    def source_action(action):
        async def endpoint(request):
            form = await _checked_form(request)
            source_id = request.path_params["source_id"]
            await run_in_threadpool(_found, data.source, source_id)
            message = await run_in_threadpool(_action, action, source_id, form.get("reason", "")[:1000])
            return _action_answer(request, message, form.get("next") or f"/sources/{source_id}")
        return endpoint

    def policy_review(source_id: str, note: str) -> str:
        return library.record_policy_review(source_id, note, settings)

    def try_page(request):
        return render(request, "try.html", {"target": "", "pages": 3, "result": None, "error": ""})

    async def try_submit(request):
        import yaml

        form = await _checked_form(request)
        target, pages = form.get("target", "")[:20000], max(1, min(20, _int(form.get("pages") or 3)))
        context = {"target": target, "pages": pages, "result": None, "error": ""}
        try:
            result = await run_in_threadpool(library.try_source, target, pages, settings)
            context.update(result=result, source_file=yaml.safe_dump(result["source_file"], sort_keys=False,
                                                                     allow_unicode=True))
        except library.ActionError as exc:
            context["error"] = str(exc)
        return render(request, "try.html", context, status_code=400 if context["error"] else 200)

    def _action_answer(request, message: str, next_url: str, refresh: bool = True):
        if request.headers.get("hx-request") == "true":
            response = render(request, "flash.html", {"message": message})
            if refresh:
                response.headers["HX-Refresh"] = "true"
            return response
        return RedirectResponse(next_url if next_url.startswith("/") and not next_url.startswith("//") else "/",
                                status_code=303)

    async def _checked_form(request):
        form = await request.form(max_files=0, max_fields=20, max_part_size=64 * 1024)
        if not csrf_ok(request, form):
            raise HTTPException(403, "missing or wrong CSRF token: reload the page and try again")
        return form

    def error(request, exc):
        status = getattr(exc, "status_code", 500)
        detail = getattr(exc, "detail", "") or "error"
        return render(request, "error.html", {"status": status, "detail": detail}, status_code=status)

    routes = [
        Route("/", sources),
        Route("/sources/{source_id}", source_page),
        Route("/sources/{source_id}/promote", source_action(library.promote_source), methods=["POST"]),
        Route("/sources/{source_id}/quarantine", source_action(library.quarantine_source), methods=["POST"]),
        Route("/sources/{source_id}/restore", source_action(library.restore_source), methods=["POST"]),
        Route("/sources/{source_id}/policy", source_action(policy_review), methods=["POST"]),
        Route("/try", try_page),
        Route("/try", try_submit, methods=["POST"]),
        Route("/jobs/{job_id:int}", job_page),
        Route("/configurations/{configuration_id:int}/noise", noise_page),
        Route("/configurations/{configuration_id:int}/noise/sample/{version_id:int}", stored_page),
        Route("/configurations/{configuration_id:int}/noise/flip", flip, methods=["POST"]),
        Route("/configurations/{configuration_id:int}/noise/request", request_review, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    middleware = [Middleware(GuardMiddleware, token=token, secret=settings.get("UI_SECRET") or None)]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={HTTPException: error, Exception: server_error})


def _found(fetch, *args):
    try:
        return fetch(*args)
    except (data.NotFound, LookupError) as exc:
        raise HTTPException(404, str(exc)) from None


def _action(action, *args) -> str:
    try:
        return action(*args)
    except library.ActionError as exc:
        raise HTTPException(400, str(exc)) from None


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise HTTPException(400, f"expected a number, got {str(value)[:40]!r}") from None


def _noise_summary(raw, config_hash: str) -> dict | None:
    if not isinstance(raw, dict):
        return None
    rules = raw.get("rules") or []
    return {"remove": sum(r.get("decision") == "remove" for r in rules),
            "keep": sum(r.get("decision") == "keep" for r in rules),
            "manual": sum(r.get("classifier") == library.MANUAL_CLASSIFIER for r in rules),
            "classifiers": sorted({r.get("classifier", "?") for r in rules}),
            "completed_at": raw.get("completed_at"), "samples": len(raw.get("samples") or []),
            "current": raw.get("config_hash") == config_hash}
