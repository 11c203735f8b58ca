"""What a listing page suggests about how to harvest it: a public ATS board it links to (use the ats strategy)
and a first source entry for a URL. Pure: the page's links in, suggestions out. Boards are recognised by
`gigflow.adapters.ats.recognise`, the one table `sources discover` and extraction read too."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from pydantic import ValidationError

from gigflow.adapters.ats.recognise import SUPPORTED, board_of, recognise_page
from gigflow.sources.config import AtsStrategy



def _strategy(provider: str, board: str, region: str) -> dict | None:
    """The ats strategy's fields when it reads this board (a provider it supports, a board id it accepts)."""
    if provider not in SUPPORTED:
        return None
    try:
        AtsStrategy(provider=provider, board_id=board, region=region)
    except ValidationError:  # a board id the strategy refuses ("Acme Labs") can't be suggested
        return None
    return {"provider": provider, "board_id": board, "region": region}


def ats_board(url: str) -> dict | None:
    """{provider, board_id, region} when ``url`` names a board the ats strategy reads, else None."""
    ref = board_of(url)
    return _strategy(ref.provider, ref.board, ref.region) if ref is not None else None


def ats_boards(body: bytes, url: str) -> list[dict]:
    """Every distinct board the ats strategy reads that the page links to, embeds or loads a script from, as
    discovery recognises them (`recognise_page`), strongest first."""
    found = []
    for finding in recognise_page(body[:2_000_000], url):
        board = _strategy(finding.provider, finding.board, finding.region)
        if board and board not in found:
            found.append(board)
    return found


def source_for_url(url: str) -> dict:
    """A first source entry for a careers page: an href strategy over it (no card selector: every same-site link
    that looks like a job), to be tried and then refined."""
    host = (urlsplit(url).hostname or "site").lower().removeprefix("www.")
    source_id = re.sub(r"[^a-z0-9]+", "-", host).strip("-") or "site"
    return {"id": source_id, "company": host, "canonical_url": url,
            "strategies": [{"type": "href", "listing_urls": [url]}]}
