"""Opaque cursors: base64url of a small JSON value. Clients store and send them back; they never parse them.

A list cursor also carries a digest of the filters it was made for, so a cursor reused with other filters is
refused rather than silently paging something else."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re


class CursorError(ValueError):
    pass


def encode(value) -> str:
    raw = json.dumps(value, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def decode(cursor: str):
    if len(cursor) > 512:
        raise CursorError("cursor is too long")
    try:
        return json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise CursorError("not a cursor this API handed out") from None


def filters_digest(filters: dict) -> str:
    return hashlib.sha256(json.dumps(filters, sort_keys=True, default=str).encode()).hexdigest()[:12]


def list_cursor(last, filters: dict, match: str = "all") -> str:
    """The cursor of the page after ``last`` (a store.delivery.JobListRow)."""
    value = {"f": filters_digest(filters), "b": last.id}
    if last.rank is not None:
        value["r"] = last.rank
    if match != "all":
        value["m"] = match
    return encode(value)


def read_list_cursor(cursor: str, filters: dict) -> tuple[int, float | None, str]:
    """(before id, rank or None, match: all or any words of q) of a list cursor made for these filters."""
    value = decode(cursor)
    if not isinstance(value, dict) or not isinstance(value.get("b"), int):
        raise CursorError("not a cursor this API handed out")
    if value.get("f") != filters_digest(filters):
        raise CursorError("this cursor belongs to a listing with other filters or another q")
    rank, match = value.get("r"), value.get("m", "all")
    if rank is not None and not isinstance(rank, (int, float)) or match not in ("all", "any"):
        raise CursorError("not a cursor this API handed out")
    return value["b"], rank, match


# Change feed positions: (transaction id, table, event id).
START = ("0", 0, 0)
_XID = re.compile(r"^\d{1,20}$")


def feed_cursor(position: tuple[str, int, int]) -> str:
    return encode(list(position))


def read_feed_cursor(cursor: str) -> tuple[str, int, int]:
    value = decode(cursor)
    if (not isinstance(value, list) or len(value) != 3 or not isinstance(value[0], str) or not _XID.match(value[0])
            or value[1] not in (0, 1) or not isinstance(value[2], int) or not 0 <= value[2] < 2**63):
        raise CursorError("not a change-feed cursor this API handed out")
    return value[0], value[1], value[2]
