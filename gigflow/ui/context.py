"""What every route of the review app is handed: the settings, the limits read from them once, the templates,
and the page renderer that puts the browser's CSRF token into every form."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from starlette.templating import Jinja2Templates

from gigflow.ui.security import CSRF_FIELD


@dataclass(frozen=True)
class Limits:
    """How much a page shows and how much the noise review reads (Scrapy settings)."""

    page_size: int  # LISTING_PAGE_SIZE: sources per page of the table
    runs_shown: int  # UI_RUNS_SHOWN
    jobs_shown: int  # UI_JOBS_SHOWN
    events_shown: int  # UI_EVENTS_SHOWN
    max_filter_bytes: int  # NOISE_FILTER_MAX_BYTES: a larger stored filter is not read
    max_page_bytes: int  # PREPARATION_MAX_BYTES: a larger page was prepared as plain text

    @classmethod
    def from_settings(cls, settings) -> Limits:
        return cls(page_size=settings.getint("LISTING_PAGE_SIZE"), runs_shown=settings.getint("UI_RUNS_SHOWN"),
                   jobs_shown=settings.getint("UI_JOBS_SHOWN"), events_shown=settings.getint("UI_EVENTS_SHOWN"),
                   max_filter_bytes=settings.getint("NOISE_FILTER_MAX_BYTES"),
                   max_page_bytes=settings.getint("PREPARATION_MAX_BYTES"))


@dataclass(frozen=True)
class UiContext:
    """One per app (create_app builds it); the database (``pool``) is reached through data.py and library.py."""

    settings: object  # Scrapy settings: the crawl's own preparation and the actions read them
    limits: Limits
    templates: Jinja2Templates

    @cached_property
    def pool(self):
        """The database the app's settings name (DATABASE_URL, else GIGFLOW_DATABASE_URL or the embedded server),
        connected on first use; every handler hands it to data.py and library.py."""
        from gigflow.db import pool_from_settings

        return pool_from_settings(self.settings)

    def render(self, request, name: str, context: dict, status_code: int = 200):
        """A template's page, with the CSRF token GuardMiddleware issued for this browser."""
        return self.templates.TemplateResponse(request, name, {"csrf": request.state.csrf, "csrf_field": CSRF_FIELD,
                                                               **context}, status_code=status_code)
