"""Published jobs: the filtered, searched list (keyset pages) and one job with its evidence and sightings."""

from __future__ import annotations

from datetime import date

from starlette.responses import RedirectResponse

from gigflow.delivery import cursors
from gigflow.delivery.context import ApiContext
from gigflow.delivery.language import QUERY_CONFIGS, cjk_bigrams
from gigflow.delivery.responses import ApiError, conditional
from gigflow.store import delivery as store

LIST_FILTERS = ("source", "employer", "location", "remote", "employment_type", "posted_since", "q")
REMOTE_VALUES = ("remote", "hybrid", "onsite")


def any_words(q: str | None) -> str | None:
    """q as "any of its words" (web-search OR) when it is two or more plain words; None when it has operators
    (quotes, -word, or) whose meaning a rewrite would change."""
    words = (q or "").split()
    if len(words) < 2 or any(w.startswith("-") or '"' in w or w.lower() == "or" for w in words):
        return None
    return " or ".join(words)


def filters_of(request) -> dict:
    """The list's filters from the query string, checked and normalised (None: not given); unknown names are a 400."""
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


def list_jobs(api: ApiContext, request):
    filters, limit = filters_of(request), api.page_limit(request)
    before, rank, match = None, None, "all"
    cursor = request.query_params.get("cursor")
    if cursor:
        before, rank, match = cursors.read_list_cursor(cursor, filters)
        if match == "any" and any_words(filters["q"]) is None:
            raise cursors.CursorError("not a cursor this API handed out")

    def params(q):
        return {**filters, "q": q, "before": before, "rank": rank if q else None, "limit": limit + 1,
                "normalization": api.limits.search_normalization, "configs": list(QUERY_CONFIGS)}

    with api.pool.connection() as conn:
        api.authorized(conn, request, "jobs:read")
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
    return conditional(request, payload, modified)


def one_job(api: ApiContext, request):
    raw = request.path_params["job_id"]
    if not (raw.isascii() and raw.isdigit()) or int(raw) >= 2**63:
        raise ApiError(404, "no such job")
    markdown = request.query_params.get("markdown", "").lower() in ("1", "true", "yes")
    with api.pool.connection() as conn:
        api.authorized(conn, request, "jobs:read")
        row = store.job(conn, int(raw), markdown)
    if row is not None and row.merged_into is not None:
        # A duplicate folded into another: send the client to the job it is now part of.
        return RedirectResponse(f"/api/v1/jobs/{row.merged_into}" + (f"?{request.url.query}"
                                                                         if request.url.query else ""), 301)
    if row is None or row.published_at is None:
        raise ApiError(404, "no such published job")
    return conditional(request, job_payload(row, markdown), row.modified_at)


def job_payload(row: store.JobRow, markdown: bool) -> dict:
    """One job as the API shows it: each field with its evidence; sightings without Markdown unless asked."""
    fields = row.fields or {}
    evidence = row.evidence or {}
    return {
        "id": row.id, "title": row.title, "url": row.url,
        "fields": {name: {"value": value, "evidence": evidence.get(name)} for name, value in fields.items()},
        "published_at": row.published_at, "expired_at": row.expired_at, "stale_at": row.stale_at,
        "link_status": row.link_status, "quality_score": row.quality_score,
        "quality_parts": row.quality_parts, "first_seen": row.first_seen, "last_seen": row.last_seen,
        "sightings": [s if markdown else {k: v for k, v in s.items() if k != "markdown"}
                      for s in row.sightings or []],
        "link_checks": row.link_checks,
    }
