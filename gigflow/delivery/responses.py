"""How the read API answers: JSON with a weak ETag and Last-Modified (304 when unchanged), and JSON errors for
ApiError and a bad cursor."""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime, timezone
from email.utils import format_datetime

from starlette.responses import Response

from gigflow.delivery import cursors


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


def error_response(status: int, message: str, headers: dict | None = None) -> Response:
    return Response(json.dumps({"error": message}), status_code=status, media_type="application/json",
                    headers=headers)


def conditional(request, payload: dict, modified: datetime | None) -> Response:
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


async def api_error(request, exc: ApiError) -> Response:
    return error_response(exc.status, exc.message, exc.headers)


async def cursor_error(request, exc: cursors.CursorError) -> Response:
    return error_response(400, str(exc))
