"""The read API (Starlette): thin handlers that parse a request, check the token's scope, call the store and
render JSON with an ETag and Last-Modified. Sync handlers: Starlette runs them in its thread pool beside the
psycopg pool."""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime, timezone
from email.utils import format_datetime

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from gigflow.delivery import cursors, feed, tokens
from gigflow.delivery.language import QUERY_CONFIGS, cjk_bigrams
from gigflow.delivery.openapi import document
from gigflow.store import delivery as store

LIST_FILTERS = ("source", "employer", "location", "remote", "employment_type", "posted_since", "q")
REMOTE_VALUES = ("remote", "hybrid", "onsite")


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


def _plain(value):
    if isinstance(value, datetime):
        return value.astimezone(timezone.utc).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"not JSON: {type(value).__name__}")


def _error(status: int, message: str, headers: dict | None = None) -> Response:
    return Response(json.dumps({"error": message}), status_code=status, media_type="application/json",
                    headers=headers)


def _conditional(request, payload: dict, modified: datetime | None) -> Response:
    """JSON with a weak ETag (the body's sha256: gzip may change the bytes, not the meaning) and Last-Modified;
    304 when the client's If-None-Match names the same body."""
    body = json.dumps(payload, default=_plain, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    etag = 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Authorization",
               "X-Content-Type-Options": "nosniff"}  # gzip adds Accept-Encoding to Vary when it compresses
    if modified is not None:
        headers["Last-Modified"] = format_datetime(modified.astimezone(timezone.utc), usegmt=True)
    given = request.headers.get("if-none-match")
    if given and (given.strip() == "*" or etag in {tag.strip() for tag in given.split(",")}
                  or etag[2:] in {tag.strip() for tag in given.split(",")}):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


def any_words(q: str | None) -> str | None:
    """q as "any of its words" (web-search OR) when it is two or more plain words; None when it has operators
    (quotes, -word, or) whose meaning a rewrite would change."""
    words = (q or "").split()
    if len(words) < 2 or any(w.startswith("-") or '"' in w or w.lower() == "or" for w in words):
        return None
    return " or ".join(words)


def create_app(settings, pool, *, allowed_hosts: list[str] | None = None) -> Starlette:
    page_size, page_max = settings.getint("API_PAGE_SIZE"), settings.getint("API_PAGE_MAX")
    normalization = settings.getint("API_SEARCH_NORMALIZATION")

    def authorized(conn, request, scope: str) -> store.LiveToken:
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header[:7].lower() == "bearer " else ""
        found = tokens.lookup(conn, token)
        if found is None:
            raise ApiError(401, "a valid API token is required: Authorization: Bearer <token> "
                                "(`scrapy api tokens add NAME --scope ...`)",
                           {"WWW-Authenticate": 'Bearer realm="gigflow"'})
        if scope not in found.scopes:
            raise ApiError(403, f"token {found.name!r} lacks the scope {scope!r}",
                           {"WWW-Authenticate": f'Bearer realm="gigflow", error="insufficient_scope", scope="{scope}"'})
        return found

    def limit_of(request) -> int:
        raw = request.query_params.get("limit")
        if raw is None:
            return page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= page_max:
            raise ApiError(400, f"limit must be a whole number from 1 to {page_max}")
        return int(raw)

    def filters_of(request) -> dict:
        unknown = sorted(set(request.query_params) - set(LIST_FILTERS) - {"cursor", "limit"})
        if unknown:
            raise ApiError(400, f"unknown parameter(s): {', '.join(unknown)}; filters: {', '.join(LIST_FILTERS)}")
        filters = {name: (request.query_params.get(name) or "").strip() or None for name in LIST_FILTERS}
        for name, value in filters.items():
            if value is not None and len(value) > 500:
                raise ApiError(400, f"{name} is longer than 500 characters")
            if value is not None and "\x00" in value:  # PostgreSQL refuses NUL in text
                raise ApiError(400, f"{name} holds a NUL character")
        if filters["remote"] is not None:
            remote = filters["remote"].lower()
            remote = {"true": "remote", "1": "remote", "yes": "remote"}.get(remote, remote)
            if remote not in REMOTE_VALUES:
                raise ApiError(400, f"remote must be one of {', '.join(REMOTE_VALUES)} (or true)")
            filters["remote"] = remote
        if filters["posted_since"] is not None:
            try:
                filters["posted_since"] = date.fromisoformat(filters["posted_since"][:10]).isoformat()
            except ValueError:
                raise ApiError(400, "posted_since must be a date, YYYY-MM-DD") from None
        if filters["q"] is not None:
            filters["q"] = " ".join(cjk_bigrams(filters["q"]).split())
        return filters

    def list_jobs(request):
        filters, limit = filters_of(request), limit_of(request)
        before, rank, match = None, None, "all"
        cursor = request.query_params.get("cursor")
        if cursor:
            before, rank, match = cursors.read_list_cursor(cursor, filters)
            if match == "any" and any_words(filters["q"]) is None:
                raise cursors.CursorError("not a cursor this API handed out")

        def params(q):
            return {**filters, "q": q, "before": before, "rank": rank if q else None, "limit": limit + 1,
                    "normalization": normalization, "configs": list(QUERY_CONFIGS)}

        with pool.connection() as conn:
            authorized(conn, request, "jobs:read")
            rows = store.list_jobs(conn, params(filters["q"] if match == "all" else any_words(filters["q"])))
            loose = any_words(filters["q"]) if not rows and not cursor else None
            if loose:  # no job has every word: rank the jobs with any of them (the answer says so)
                match, rows = "any", store.list_jobs(conn, params(loose))
        more = len(rows) > limit
        rows = rows[:limit]
        jobs = [row.payload(ranked=bool(filters["q"])) for row in rows]
        payload = {"jobs": jobs, "next": cursors.list_cursor(rows[-1], filters, match) if more else None}
        if filters["q"]:
            payload["match"] = match
        modified = max((row.modified_at for row in rows if row.modified_at), default=None)
        return _conditional(request, payload, modified)

    def one_job(request):
        raw = request.path_params["job_id"]
        if not (raw.isascii() and raw.isdigit()) or int(raw) >= 2**63:
            raise ApiError(404, "no such job")
        markdown = request.query_params.get("markdown", "").lower() in ("1", "true", "yes")
        with pool.connection() as conn:
            authorized(conn, request, "jobs:read")
            row = store.job(conn, int(raw), markdown)
        if row is not None and row.merged_into is not None:
            # A duplicate folded into another: send the client to the job it is now part of.
            return RedirectResponse(f"/api/v1/jobs/{row.merged_into}" + (f"?{request.url.query}"
                                                                             if request.url.query else ""), 301)
        if row is None or row.published_at is None:
            raise ApiError(404, "no such published job")
        fields = row.fields or {}
        evidence = row.evidence or {}
        payload = {
            "id": row.id, "title": row.title, "url": row.url,
            "fields": {name: {"value": value, "evidence": evidence.get(name)} for name, value in fields.items()},
            "published_at": row.published_at, "expired_at": row.expired_at, "stale_at": row.stale_at,
            "link_status": row.link_status, "quality_score": row.quality_score,
            "quality_parts": row.quality_parts, "first_seen": row.first_seen, "last_seen": row.last_seen,
            "sightings": [s if markdown else {k: v for k, v in s.items() if k != "markdown"}
                          for s in row.sightings or []],
            "link_checks": row.link_checks,
        }
        return _conditional(request, payload, row.modified_at)

    def changes(request):
        after = request.query_params.get("after")
        limit = limit_of(request)
        with pool.connection() as conn:
            authorized(conn, request, "changes:read")
            if after == "latest":
                position = feed.head(conn)
                items = []
            else:
                position = cursors.read_feed_cursor(after) if after else cursors.START
                items, position = feed.page(conn, position, limit)
        payload = {"changes": [feed.change_payload(c) for c in items], "next": cursors.feed_cursor(position)}
        return _conditional(request, payload, max((c.at for c in items), default=None))

    def openapi(request):
        return Response(json.dumps(document(page_size, page_max)), media_type="application/json")

    async def api_error(request, exc: ApiError):
        return _error(exc.status, exc.message, exc.headers)

    async def cursor_error(request, exc: cursors.CursorError):
        return _error(400, str(exc))

    routes = [Route("/api/v1/jobs", list_jobs), Route("/api/v1/jobs/{job_id}", one_job),
              Route("/api/v1/changes", changes), Route("/api/v1/openapi.json", openapi)]
    middleware = [Middleware(GZipMiddleware, minimum_size=1000)]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={ApiError: api_error, cursors.CursorError: cursor_error})
