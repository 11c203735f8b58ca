"""A configuration's noise review: its rules by region, a sample page with the learned regions outlined, the
Markdown before and after the filter; flipping a rule and requesting a review."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, RedirectResponse

from gigflow.ui import data, library
from gigflow.ui.annotate import annotate
from gigflow.ui.context import UiContext
from gigflow.ui.library import ConfigurationRow, SampleVersionRow
from gigflow.ui.render import group_rules, line_diff
from gigflow.ui.routes.basics import action_answer, checked_form, found, number
from gigflow.ui.security import STORED_PAGE_CSP


def noise_page(ui: UiContext, request):
    configuration = found(data.configuration, ui.pool, request.path_params["configuration_id"])
    return ui.render(request, "noise.html", noise_context(ui, configuration, request.query_params.get("version")))


def stored_page(ui: UiContext, request):
    """The sample page as the filter sees it, regions outlined: only ever shown sandboxed, framed by the app."""
    configuration_id, version_id = request.path_params["configuration_id"], request.path_params["version_id"]
    version = sample(ui, configuration_id, version_id)
    state, noise_filter = library.current_filter(ui.pool, configuration_id, ui.limits.max_filter_bytes)
    root = library.prepared_tree(bytes(version.body), version.url, version.content_type, state.card_strategy())
    page, _ = annotate(root, noise_filter.rules if noise_filter else [], library.select_regions)
    return HTMLResponse(page, headers={"Content-Security-Policy": STORED_PAGE_CSP,
                                       "X-Frame-Options": "SAMEORIGIN", "Cache-Control": "no-store"})


async def flip(ui: UiContext, request):
    form = await checked_form(request)
    configuration_id = request.path_params["configuration_id"]
    configuration = await run_in_threadpool(found, data.configuration, ui.pool, configuration_id)
    try:
        decision, _ = await run_in_threadpool(
            library.flip_decision, ui.pool, configuration_id, selector=form.get("selector", ""),
            signature=form.get("signature", ""), expected_token=number(form.get("token")),
            note=form.get("note", "")[:300], max_bytes=ui.limits.max_filter_bytes,
            markdown_dir=ui.settings.get("MARKDOWN_DIR", ""))
        message = f"saved: {form.get('selector')} is now {decision} (manual review)"
    except library.ActionError as exc:
        message = str(exc)
    if request.headers.get("hx-request") != "true":
        return RedirectResponse(f"/configurations/{configuration_id}/noise", status_code=303)
    context = await run_in_threadpool(noise_context, ui, configuration, form.get("version"), message)
    return ui.render(request, "noise_rules.html", context)


async def request_review(ui: UiContext, request):
    await checked_form(request)
    configuration_id = request.path_params["configuration_id"]
    await run_in_threadpool(found, data.configuration, ui.pool, configuration_id)
    message = await run_in_threadpool(library.request_noise_review, ui.pool, configuration_id)
    return action_answer(ui, request, message, f"/configurations/{configuration_id}/noise", refresh=False)


def noise_context(ui: UiContext, configuration: ConfigurationRow, version_param, message: str = "") -> dict:
    """The rules panel's context: the current filter's rules by region and, for the chosen sample (the first when
    none is asked for), which regions each rule matches and the Markdown diff the filter makes."""
    configuration_id = configuration.id
    state, noise_filter = library.current_filter(ui.pool, configuration_id, ui.limits.max_filter_bytes)
    samples = [s.source_version_id for s in (noise_filter.samples if noise_filter else []) if s.source_version_id] \
        or [s.source_version_id for s in library.sample_refs(ui.pool, configuration_id)]
    version_id = number(version_param) if version_param else (samples[0] if samples else None)
    context = {"configuration": configuration, "filter": noise_filter, "token": state.token, "samples": samples,
               "groups": group_rules(noise_filter.rules) if noise_filter else [],
               "version_id": version_id, "matches": {}, "diff": [], "message": message, "version": None}
    if version_id is None:
        return context
    version = sample(ui, configuration_id, version_id)
    body, strategy = bytes(version.body), state.card_strategy()
    rules = noise_filter.rules if noise_filter else []
    _, matches = annotate(library.prepared_tree(body, version.url, version.content_type, strategy), rules,
                          library.select_regions)
    before = library.prepare_markdown(ui.settings, body, version.url, version.content_type, strategy, None)
    after = library.prepare_markdown(ui.settings, body, version.url, version.content_type, strategy, noise_filter)
    diff = line_diff(before, after)
    context.update(version=version, matches={m.index: m for m in matches}, diff=diff,
                   removed=sum(kind == "removed" for kind, _ in diff))
    return context


def sample(ui: UiContext, configuration_id: int, version_id: int) -> SampleVersionRow:
    version = found(data.sample_version, ui.pool, configuration_id, version_id)
    max_page_bytes = ui.limits.max_page_bytes
    if max_page_bytes and len(version.body) > max_page_bytes:
        # Crawls store such a page as plain text, without the noise filter: there is nothing to outline.
        raise HTTPException(422, f"version {version_id} is {len(version.body)} bytes, over "
                                 f"PREPARATION_MAX_BYTES ({max_page_bytes}): prepared as plain text, no regions")
    return version
