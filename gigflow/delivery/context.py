"""What every route of the read API is handed: the settings, the pool, the limits read from the settings once, and
the token check each data endpoint runs first."""

from __future__ import annotations

from dataclasses import dataclass

from gigflow.delivery import tokens
from gigflow.delivery.responses import ApiError
from gigflow.store import delivery as store


@dataclass(frozen=True)
class Limits:
    """How large a page is and how search ranks (Scrapy settings)."""

    page_size: int  # API_PAGE_SIZE: a page without ?limit=
    page_max: int  # API_PAGE_MAX: the largest ?limit= accepted
    search_normalization: int  # API_SEARCH_NORMALIZATION: ts_rank's length normalisation

    @classmethod
    def from_settings(cls, settings) -> Limits:
        return cls(page_size=settings.getint("API_PAGE_SIZE"), page_max=settings.getint("API_PAGE_MAX"),
                   search_normalization=settings.getint("API_SEARCH_NORMALIZATION"))


@dataclass(frozen=True)
class ApiContext:
    """One per app (create_app builds it). ``pool``: the settings' database, which serve() connects and migrates
    before it announces the address, so a handler never pays for the first connection."""

    settings: object
    pool: object
    limits: Limits

    def authorized(self, conn, request, scope: str) -> store.LiveToken:
        """The request's live bearer token, or a 401 (no live token) / 403 (the token lacks ``scope``)."""
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

    def page_limit(self, request) -> int:
        """?limit= as a whole number from 1 to page_max; page_size when absent."""
        raw = request.query_params.get("limit")
        if raw is None:
            return self.limits.page_size
        if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= self.limits.page_max:
            raise ApiError(400, f"limit must be a whole number from 1 to {self.limits.page_max}")
        return int(raw)
