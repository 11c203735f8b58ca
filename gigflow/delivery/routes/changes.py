"""The change feed: a page of changes after the client's cursor, or the current head (?after=latest)."""

from __future__ import annotations

from gigflow.delivery import cursors, feed
from gigflow.delivery.context import ApiContext
from gigflow.delivery.responses import conditional


def changes(api: ApiContext, request):
    after = request.query_params.get("after")
    limit = api.page_limit(request)
    with api.pool.connection() as conn:
        api.authorized(conn, request, "changes:read")
        if after == "latest":
            position = feed.head(conn)
            items = []
        else:
            position = cursors.read_feed_cursor(after) if after else cursors.START
            items, position = feed.page(conn, position, limit)
    payload = {"changes": [feed.change_payload(c) for c in items], "next": cursors.feed_cursor(position)}
    return conditional(request, payload, max((c.at for c in items), default=None))
