"""The read API (Starlette): its context, its route table and its middleware. The handlers live in routes/ (parse
the request, check the token's scope, call the store, render JSON with an ETag and Last-Modified); no rules here.
Sync handlers: Starlette runs them in its thread pool beside the psycopg pool."""

from __future__ import annotations

from functools import partial

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Route

from gigflow.delivery import cursors
from gigflow.delivery.context import ApiContext, Limits
from gigflow.delivery.responses import ApiError, api_error, cursor_error
from gigflow.delivery.routes import changes, jobs, openapi

__all__ = ["create_app", "routes"]


def create_app(settings, pool, *, allowed_hosts: list[str] | None = None) -> Starlette:
    """The ASGI app over ``pool``. ``settings``: Scrapy settings (page sizes, search ranking)."""
    api = ApiContext(settings=settings, pool=pool, limits=Limits.from_settings(settings))
    middleware = [Middleware(GZipMiddleware, minimum_size=1000)]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(routes=routes(api), middleware=middleware,
                     exception_handlers={ApiError: api_error, cursors.CursorError: cursor_error})


def routes(api: ApiContext) -> list[Route]:
    """Every address of the API, each handler bound to ``api``."""
    def route(path: str, handler) -> Route:
        return Route(path, partial(handler, api), name=handler.__name__)

    return [
        route("/api/v1/jobs", jobs.list_jobs),
        route("/api/v1/jobs/{job_id}", jobs.one_job),
        route("/api/v1/changes", changes.changes),
        route("/api/v1/openapi.json", openapi.openapi),
    ]
