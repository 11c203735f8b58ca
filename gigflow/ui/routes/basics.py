"""What every route uses: a lookup that answers 404, a number or an action that answers 400, a form checked for
its CSRF token, an action's answer and the error page."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import RedirectResponse

from gigflow.ui import data, library
from gigflow.ui.context import UiContext
from gigflow.ui.security import csrf_ok


def found(fetch, *args):
    try:
        return fetch(*args)
    except (data.NotFound, LookupError) as exc:
        raise HTTPException(404, str(exc)) from None


def acted(action, *args) -> str:
    try:
        return action(*args)
    except library.ActionError as exc:
        raise HTTPException(400, str(exc)) from None


def number(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise HTTPException(400, f"expected a number, got {str(value)[:40]!r}") from None


async def checked_form(request):
    """The POST's form (small, no files), refused with 403 unless it carries this browser's CSRF token."""
    form = await request.form(max_files=0, max_fields=20, max_part_size=64 * 1024)
    if not csrf_ok(request, form):
        raise HTTPException(403, "missing or wrong CSRF token: reload the page and try again")
    return form


def action_answer(ui: UiContext, request, message: str, next_url: str, refresh: bool = True):
    """htmx gets the message (and a refresh of the page); a plain form post goes back to a page of the app."""
    if request.headers.get("hx-request") == "true":
        response = ui.render(request, "flash.html", {"message": message})
        if refresh:
            response.headers["HX-Refresh"] = "true"
        return response
    return RedirectResponse(next_url if next_url.startswith("/") and not next_url.startswith("//") else "/",
                            status_code=303)


def error_page(ui: UiContext, request, exc):
    status = getattr(exc, "status_code", 500)
    detail = getattr(exc, "detail", "") or "error"
    return ui.render(request, "error.html", {"status": status, "detail": detail}, status_code=status)
