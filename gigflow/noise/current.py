"""getCurrentNoiseFilter: the stored filter, only when it is small enough, valid, and for this configuration."""

from __future__ import annotations

import json
import logging

from pydantic import ValidationError

from gigflow.noise.model import NoiseFilter

logger = logging.getLogger(__name__)

DEFAULT_MAX_BYTES = 256 * 1024


def get_current_noise_filter(stored_config: dict | None, config_hash: str,
                             max_bytes: int = DEFAULT_MAX_BYTES) -> NoiseFilter | None:
    """The validated filter from a configuration's JSONB, or None (absent, too large, invalid, or stale)."""
    raw = (stored_config or {}).get("noiseFilter")
    if raw is None:
        return None
    size = len(json.dumps(raw, separators=(",", ":")))
    if size > max_bytes:
        logger.warning("noise filter ignored: %d bytes is over the %d-byte limit", size, max_bytes)
        return None
    try:
        noise_filter = NoiseFilter.model_validate(raw)
    except ValidationError as exc:
        logger.warning("noise filter ignored: invalid schema: %s", exc.errors()[0]["msg"])
        return None
    if noise_filter.config_hash != config_hash:
        return None  # learned for other strategies
    return noise_filter
