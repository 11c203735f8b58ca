"""Retry-After in both forms (RFC 9110): delay-seconds or an HTTP-date."""

from __future__ import annotations

import time
from email.utils import parsedate_to_datetime


def retry_after_seconds(value: str | bytes | None, now: float | None = None) -> float | None:
    """Seconds to wait from ``now``; None when absent or unreadable (the caller then uses its backoff)."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))
