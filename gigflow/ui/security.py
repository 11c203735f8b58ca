"""Who may use the app and what a page may do: the access token, CSRF for POSTs, and the response headers."""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlencode

from starlette.datastructures import URL
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import PlainTextResponse, RedirectResponse

TOKEN_COOKIE, CSRF_COOKIE, CSRF_FIELD, CSRF_HEADER = "gigflow_ui_token", "gigflow_csrf", "csrf", "x-csrf-token"
# The app's own pages: its script and stylesheet only, frames only from itself, never framed elsewhere.
APP_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
           "frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
# A stored page: sandboxed (opaque origin, no scripts, forms, popups or navigation of the app), nothing fetched
# but its own inline style, and only the app may frame it.
STORED_PAGE_CSP = ("sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; "
                   "base-uri 'none'; frame-ancestors 'self'")


def same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(a.encode(), b.encode())


class GuardMiddleware(BaseHTTPMiddleware):
    """Token (when one is configured), a CSRF cookie for every browser, and security headers on every answer."""

    def __init__(self, app, token: str = ""):
        super().__init__(app)
        self.token = token

    async def dispatch(self, request, call_next):
        if self.token:
            given = request.query_params.get("token")
            if given is not None:
                if not same(given, self.token):
                    return PlainTextResponse("wrong token", status_code=401)
                # Keep the token out of the address bar, history and logs: a cookie from here on.
                query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
                response = RedirectResponse(str(URL(str(request.url)).replace(query=query)), status_code=303)
                response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict")
                return self._headers(response)
            bearer = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
            if not (same(request.cookies.get(TOKEN_COOKIE), self.token) or same(bearer, self.token)):
                return self._headers(PlainTextResponse(
                    "this app needs its token: open the address `scrapy ui` printed (…/?token=…)", status_code=401))
        csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        request.state.csrf = csrf
        response = await call_next(request)
        if request.cookies.get(CSRF_COOKIE) != csrf:
            response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict")
        return self._headers(response)

    @staticmethod
    def _headers(response):
        response.headers.setdefault("Content-Security-Policy", APP_CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response


def csrf_ok(request, form) -> bool:
    """A POST carries the browser's CSRF cookie value back, in the form or the htmx header (double submit)."""
    cookie = request.cookies.get(CSRF_COOKIE)
    return same(cookie, form.get(CSRF_FIELD)) or same(cookie, request.headers.get(CSRF_HEADER))
