"""The review app: its context, its route table and its middleware. The handlers live in routes/ (parse the
request, call data/library functions, render a template); no rules here."""

from __future__ import annotations

from functools import partial

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gigflow.ui.context import Limits, UiContext
from gigflow.ui.routes import jobs, noise, sources, try_source
from gigflow.ui.routes.basics import error_page
from gigflow.ui.security import GuardMiddleware, server_error
from gigflow.ui.templating import HERE, templates

__all__ = ["create_app", "routes", "templates"]


def create_app(settings, *, token: str = "", allowed_hosts: list[str] | None = None) -> Starlette:
    """The ASGI app over the configured database. ``settings``: Scrapy settings (limits, page sizes)."""
    ui = UiContext(settings=settings, limits=Limits.from_settings(settings), templates=templates)
    middleware = [Middleware(GuardMiddleware, token=token, secret=settings.get("UI_SECRET") or None)]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    return Starlette(routes=routes(ui), middleware=middleware,
                     exception_handlers={HTTPException: partial(error_page, ui), Exception: server_error})


def routes(ui: UiContext) -> list:
    """Every address of the app, each handler bound to ``ui``."""
    def route(path: str, handler, methods: list[str] | None = None) -> Route:
        return Route(path, partial(handler, ui), methods=methods, name=handler.__name__)

    post = ["POST"]
    return [
        route("/", sources.sources_table),
        route("/sources/{source_id}", sources.source_page),
        route("/sources/{source_id}/promote", sources.promote, post),
        route("/sources/{source_id}/quarantine", sources.quarantine, post),
        route("/sources/{source_id}/restore", sources.restore, post),
        route("/sources/{source_id}/policy", sources.record_policy_review, post),
        route("/try", try_source.try_page),
        route("/try", try_source.try_submit, post),
        route("/jobs/{job_id:int}", jobs.job_page),
        route("/configurations/{configuration_id:int}/noise", noise.noise_page),
        route("/configurations/{configuration_id:int}/noise/sample/{version_id:int}", noise.stored_page),
        route("/configurations/{configuration_id:int}/noise/flip", noise.flip, post),
        route("/configurations/{configuration_id:int}/noise/request", noise.request_review, post),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
