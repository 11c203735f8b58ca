"""Try a careers page or a source file, as `scrapy sources try` does, without storing anything."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool

from gigflow.ui import library
from gigflow.ui.context import UiContext
from gigflow.ui.routes.basics import checked_form, number


def try_page(ui: UiContext, request):
    return ui.render(request, "try.html", {"target": "", "pages": 3, "result": None, "error": ""})


async def try_submit(ui: UiContext, request):
    import yaml

    form = await checked_form(request)
    target, pages = form.get("target", "")[:20000], max(1, min(20, number(form.get("pages") or 3)))
    context = {"target": target, "pages": pages, "result": None, "error": ""}
    try:
        result = await run_in_threadpool(library.try_source, target, pages, ui.settings)
        context.update(result=result, source_file=yaml.safe_dump(result["source_file"], sort_keys=False,
                                                                 allow_unicode=True))
    except library.ActionError as exc:
        context["error"] = str(exc)
    return ui.render(request, "try.html", context, status_code=400 if context["error"] else 200)
