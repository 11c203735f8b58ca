"""What a listing page suggests about how to harvest it: a public ATS board it links to (use the ats strategy)
and a first source entry for a URL. Pure: the page's links in, suggestions out."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from lxml import html as lxml_html

# Public board URL forms of each supported provider: (provider, region, host pattern, where the board id is).
# "path": the first path segment; "host": the subdomain; "query:NAME": a query parameter.
_BOARDS = (
    ("greenhouse", "us", re.compile(r"^(?:boards|job-boards)(?:\.eu)?\.greenhouse\.io$"), "path"),
    ("greenhouse", "us", re.compile(r"^boards-api\.greenhouse\.io$"), "api"),
    ("greenhouse", "us", re.compile(r"^(?:boards\.)?greenhouse\.io$"), "query:for"),
    ("lever", "eu", re.compile(r"^jobs\.eu\.lever\.co$"), "path"),
    ("lever", "us", re.compile(r"^jobs\.lever\.co$"), "path"),
    ("recruitee", "us", re.compile(r"^(?P<board>[a-z0-9-]+)\.recruitee\.com$"), "host"),
    ("smartrecruiters", "us", re.compile(r"^(?:jobs|careers)\.smartrecruiters\.com$"), "path"),
    ("workable", "us", re.compile(r"^apply\.workable\.com$"), "path"),
)
_BOARD_ID = re.compile(r"^[A-Za-z0-9_.\-]+$")
_NOT_BOARDS = {"embed", "v1", "api", "j", "jobs", "o"}


def ats_board(url: str) -> dict | None:
    """{provider, board_id, region} when ``url`` is on a supported provider's public board, else None."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    segments = [s for s in parts.path.split("/") if s]
    for provider, region, pattern, where in _BOARDS:
        match = pattern.match(host)
        if not match:
            continue
        if where == "host":
            board = match.group("board")
        elif where == "api":  # /v1/boards/{board}/jobs
            board = segments[2] if len(segments) > 2 and segments[:2] == ["v1", "boards"] else None
        elif where.startswith("query:"):
            board = (parse_qs(parts.query).get(where.split(":", 1)[1]) or [None])[0]
        else:
            board = segments[0] if segments else None
        if board and board.lower() not in _NOT_BOARDS and _BOARD_ID.match(board):
            return {"provider": provider, "board_id": board, "region": region}
    return None


def ats_boards(body: bytes, url: str) -> list[dict]:
    """Every distinct ATS board the page links to, embeds (iframe) or loads a script from, in page order."""
    try:
        root = lxml_html.document_fromstring(body[:2_000_000] or b"<html></html>", base_url=url)
    except (ValueError, TypeError, lxml_html.etree.ParserError):
        return []
    root.make_links_absolute(url, resolve_base_href=True, handle_failures="discard")
    found: dict[tuple, dict] = {}
    for _element, _attribute, link, _pos in root.iterlinks():
        board = ats_board(link)
        if board:
            found.setdefault((board["provider"], board["board_id"]), board)
    return list(found.values())


def source_for_url(url: str) -> dict:
    """A first source entry for a careers page: an href strategy over it (no card selector: every same-site link
    that looks like a job), to be tried and then refined."""
    host = (urlsplit(url).hostname or "site").lower().removeprefix("www.")
    source_id = re.sub(r"[^a-z0-9]+", "-", host).strip("-") or "site"
    return {"id": source_id, "company": host, "canonical_url": url,
            "strategies": [{"type": "href", "listing_urls": [url]}]}
