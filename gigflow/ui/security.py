"""Who may use the app and what a page may do: the access token, CSRF for POSTs, and the response headers.

CSRF has two locks. (1) Every state-changing request from a browser must come from the app's own origin: a
``Sec-Fetch-Site`` other than ``same-origin``/``none`` or an ``Origin`` other than the app's is refused before any
route runs (a page on another port of the same host is same-site but not same-origin). (2) The form or the htmx
header carries a token the server issued: an HMAC, under the app's secret, of a random session value kept in a
cookie. A cookie tossed in by another page (cookies ignore ports) is either malformed, and replaced, or a value
whose HMAC the other page cannot compute. Over https the cookie is a ``__Host-`` cookie (Secure, Path=/, no
Domain), which no other host or plain-http page can set."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from urllib.parse import unquote, urlencode

from starlette.datastructures import URL
from starlette.middleware.base import BaseHTTPMiddleware
from starlette.responses import PlainTextResponse, RedirectResponse

TOKEN_COOKIE, CSRF_COOKIE, CSRF_FIELD, CSRF_HEADER = "gigflow_ui_token", "gigflow_csrf", "csrf", "x-csrf-token"
SECURE_CSRF_COOKIE = "__Host-" + CSRF_COOKIE  # over https: only this host, Secure, Path=/
# The app's own pages: its script and stylesheet only, frames only from itself, never framed elsewhere.
APP_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
           "frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
# A stored page: sandboxed (opaque origin, no scripts, forms, popups or navigation of the app), nothing fetched
# but its own inline style, and only the app may frame it.
STORED_PAGE_CSP = ("sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; "
                   "base-uri 'none'; frame-ancestors 'self'")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_SESSION = re.compile(r"[A-Za-z0-9_-]{43}")  # secrets.token_urlsafe(32)
_SAME_ORIGIN_FETCH = {"same-origin", "none"}  # none: typed in the address bar, a bookmark


def display_guard(value):
    """Jinja ``finalize``: every value a template prints has terminal escapes and bidi overrides made visible
    (gigflow.safety.display), so a stored title cannot reorder the text around it. Markup stays Markup."""
    from markupsafe import Markup

    from gigflow.safety.display import display_safe

    if isinstance(value, Markup):
        return Markup(display_safe(str(value)))
    return display_safe(value) if isinstance(value, str) else value


def same(a: str | None, b: str | None) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(a.encode(), b.encode())


def csrf_token(secret: bytes, session: str) -> str:
    """The token forms carry for this session: an HMAC only the server (holding ``secret``) can compute."""
    return hmac.new(secret, b"gigflow-csrf:" + session.encode(), hashlib.sha256).hexdigest()


def security_headers(response):
    response.headers.setdefault("Content-Security-Policy", APP_CSP)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def server_error(request, exc):
    """A 500 (the outermost middleware answers it, outside GuardMiddleware): one line, the same headers."""
    return security_headers(PlainTextResponse("internal error: see the app's log", status_code=500))


def cross_origin_reason(request) -> str | None:
    """Why an unsafe request did not come from the app's own pages, or None. ``Sec-Fetch-Site`` (set by the
    browser, never by a page) decides when present; else ``Origin``. (With the app's no-referrer policy Chromium
    sends ``Origin: null`` on its own form posts, which Sec-Fetch-Site: same-origin then vouches for.)"""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return None if site in _SAME_ORIGIN_FETCH else f"a {site} request"
    origin = request.headers.get("origin")
    if origin is not None:
        own = f"{request.url.scheme}://{request.url.netloc}".lower()
        if origin.lower() != own:
            return "a request from another origin"
    return None


class GuardMiddleware(BaseHTTPMiddleware):
    """Token (when one is configured), origin checks on unsafe methods, a CSRF session for every browser, NUL
    bytes refused, and security headers on every answer."""

    def __init__(self, app, token: str = "", secret: bytes | str | None = None):
        super().__init__(app)
        self.token = token
        self.secret = secret.encode() if isinstance(secret, str) else (secret or secrets.token_bytes(32))

    async def dispatch(self, request, call_next):
        if "\x00" in unquote(request.url.path) or "\x00" in unquote(request.url.query):
            return security_headers(PlainTextResponse("a NUL byte in the address", status_code=400))
        if self.token:
            given = request.query_params.get("token")
            if given is not None:
                if not same(given, self.token):
                    return security_headers(PlainTextResponse("wrong token", status_code=401))
                # Keep the token out of the address bar, history and logs: a cookie from here on.
                query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "token"])
                response = RedirectResponse(str(URL(str(request.url)).replace(query=query)), status_code=303)
                response.set_cookie(TOKEN_COOKIE, self.token, httponly=True, samesite="strict",
                                    secure=request.url.scheme == "https")
                return security_headers(response)
            bearer = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
            if not (same(request.cookies.get(TOKEN_COOKIE), self.token) or same(bearer, self.token)):
                return security_headers(PlainTextResponse(
                    "this app needs its token: open the address `scrapy ui` printed (…/?token=…)", status_code=401))
        if request.method not in SAFE_METHODS:
            reason = cross_origin_reason(request)
            if reason:
                return security_headers(PlainTextResponse(
                    f"refused: {reason} (actions are taken only from the app's own pages)", status_code=403))
        secure = request.url.scheme == "https"
        name = SECURE_CSRF_COOKIE if secure else CSRF_COOKIE
        carried = request.cookies.get(name) or ""
        valid = bool(_SESSION.fullmatch(carried))
        session = carried if valid else secrets.token_urlsafe(32)
        request.state.csrf = csrf_token(self.secret, session)
        # Only a session the browser already had can vouch for a POST: a fresh one was never in any form.
        request.state.csrf_expected = request.state.csrf if valid else None
        response = await call_next(request)
        if not valid:
            response.set_cookie(name, session, httponly=True, samesite="strict", secure=secure, path="/")
        return security_headers(response)


def csrf_ok(request, form) -> bool:
    """A POST carries the token the server issued for the browser's session, in the form or the htmx header."""
    expected = getattr(request.state, "csrf_expected", None)
    return same(expected, form.get(CSRF_FIELD)) or same(expected, request.headers.get(CSRF_HEADER))


class RedactTokenFilter(logging.Filter):
    """The access token never reaches a log line: ``token=…`` in a logged request path becomes ``token=***``."""

    _TOKEN = re.compile(r"(?i)([?&;]token=)[^&;\s\"']*")

    def filter(self, record: logging.LogRecord) -> bool:
        # uvicorn's access formatter unpacks the arguments (client, method, path, version, status): redact each.
        if isinstance(record.args, tuple):
            record.args = tuple(self._TOKEN.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args)
        if isinstance(record.msg, str):
            record.msg = self._TOKEN.sub(r"\1***", record.msg)
        return True
