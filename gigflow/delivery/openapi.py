"""The OpenAPI 3.1 document the app serves at /api/v1/openapi.json."""

from __future__ import annotations

from gigflow.delivery.tokens import SCOPES


def _param(name: str, description: str, schema: dict | None = None, where: str = "query",
           required: bool = False) -> dict:
    return {"name": name, "in": where, "required": required, "description": description,
            "schema": schema or {"type": "string"}}


# What every data endpoint may answer besides its own.
CONDITIONAL = {"304": {"description": "unchanged: the If-None-Match ETag still names this answer"},
               "401": {"description": "no valid token"}, "403": {"description": "the token lacks the scope"}}
# One job of a list page.
JOB_SUMMARY = {"type": "object", "properties": {
    "id": {"type": "integer"}, "title": {"type": "string"}, "employer": {"type": ["string", "null"]},
    "location": {"type": ["string", "null"]}, "remote": {"type": ["string", "null"]},
    "employment_type": {"type": ["string", "null"]}, "date_posted": {"type": ["string", "null"], "format": "date"},
    "source_ids": {"type": "array", "items": {"type": "string"}}, "language": {"type": "string"},
    "published_at": {"type": "string", "format": "date-time"}, "quality_score": {"type": ["integer", "null"]},
    "link_status": {"type": "string"}, "first_seen": {"type": "string", "format": "date-time"},
    "rank": {"type": "number", "description": "only with q"}}}


def document(page_size: int, page_max: int) -> dict:
    limit = _param("limit", f"page size (default {page_size})",
                   {"type": "integer", "minimum": 1, "maximum": page_max})
    return {
        "openapi": "3.1.0",
        "info": {"title": "gigflow read API", "version": "1",
                 "description": "Published canonical jobs, their change feed and search. Every answer carries an "
                                "ETag (send it back in If-None-Match for a 304) and Last-Modified."},
        "components": {"securitySchemes": {"token": {
            "type": "http", "scheme": "bearer",
            "description": "`scrapy api tokens add NAME --scope ...`; scopes: "
                           + "; ".join(f"{k}: {v}" for k, v in SCOPES.items())}}},
        "security": [{"token": []}],
        "paths": {
            "/api/v1/jobs": {"get": {
                "summary": "Published canonical jobs, newest first; ranked best first with q",
                "parameters": [
                    _param("source", "seen by this source id"), _param("employer", "employer, case-insensitive"),
                    _param("location", "location contains this text"),
                    _param("remote", "remote, hybrid or onsite (true: remote)"),
                    _param("employment_type", "e.g. FULL_TIME, case-insensitive"),
                    _param("posted_since", "posted on or after this date", {"type": "string", "format": "date"}),
                    _param("q", "full-text search (web search syntax: words, \"phrases\", OR, -word)"),
                    _param("cursor", "the `next` of the previous page"), limit],
                "responses": {"200": {"description": "a page", "content": {"application/json": {"schema": {
                    "type": "object", "properties": {
                        "jobs": {"type": "array", "items": JOB_SUMMARY},
                        "next": {"type": ["string", "null"], "description": "cursor of the next page"},
                        "match": {"type": "string", "enum": ["all", "any"],
                                  "description": "with q: jobs with all its words, or (none had all) any"}}}}}},
                    "400": {"description": "a bad filter or cursor"}, **CONDITIONAL}}},
            "/api/v1/jobs/{job_id}": {"get": {
                "summary": "One published canonical job: fields with evidence, sightings, link checks",
                "parameters": [_param("job_id", "canonical job id", {"type": "integer"}, "path", True),
                               _param("markdown", "1: include each sighting's Markdown", {"type": "boolean"})],
                "responses": {"200": {"description": "the job"},
                              "301": {"description": "folded into another job: Location names it"},
                              "404": {"description": "no such published job"}, **CONDITIONAL}}},
            "/api/v1/changes": {"get": {
                "summary": "What happened to canonical jobs since a cursor, in commit-safe order",
                "description": "Kinds: created, merged, folded, unmerged, updated (fields), gone, revived, "
                               "reextracted, expired, unexpired, stale, fresh, published, unpublished, link "
                               "outcomes. Store `next` and ask again with it: nothing is missed or repeated. "
                               "after=latest starts at the newest position (after a full read of /jobs).",
                "parameters": [_param("after", "a cursor (`next` or a change's `cursor`), or `latest`"), limit],
                "responses": {"200": {"description": "changes and the next cursor"},
                              "400": {"description": "a bad cursor"}, **CONDITIONAL}}},
        },
    }
