"""Structured log events: one JSON line each, always with the configuration id."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone

logger = logging.getLogger("gigflow.events")

EVENTS = frozenset({
    "review_requested", "review_skipped", "review_started", "review_deferred", "batch_failed", "review_retried",
    "review_completed", "review_failed", "filter_saved", "save_conflict", "filter_reset", "filter_applied",
    "region_changed", "review_requested_by_preparation", "enqueue_failed", "versions_reprepared",
})


def emit(event: str, configuration_id: int | None, **fields) -> dict:
    if event not in EVENTS:
        raise ValueError(f"unknown event {event!r}")
    payload = {"event": event, "configuration_id": configuration_id,
               "at": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), **fields}
    logger.info(json.dumps(payload, ensure_ascii=False, default=str, sort_keys=False))
    return payload
