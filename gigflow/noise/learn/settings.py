"""Noise-learning settings: Scrapy settings with documented defaults; the model also comes from the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass

DEFAULTS = {
    "NOISE_CLASSIFIER": "auto",  # openai | rules | auto (the model when GIGFLOW_NOISE_MODEL is set)
    "NOISE_MODEL": "",  # overrides GIGFLOW_NOISE_MODEL
    "NOISE_BATCH_SIZE": 20,  # regions per model call
    "NOISE_MODEL_TIMEOUT": 60.0,  # seconds per model call
    "NOISE_REVIEW_RETRIES": 2,  # whole-review retries after a failed batch
    # Regions with more markup than this stay and are not sent (mega menus of page builders run to 50-100 KB).
    "NOISE_MAX_REGION_CHARS": 150000,
    "NOISE_MAX_REGION_SENT_CHARS": 4000,  # markup sent per region (text and links are always sent whole)
    "NOISE_MAX_REGIONS": 2000,  # regions (candidates and their parts) a review examines; the rest stay
}


@dataclass(frozen=True)
class NoiseSettings:
    classifier: str = DEFAULTS["NOISE_CLASSIFIER"]
    model: str = ""
    base_url: str = ""
    api_key: str = ""
    batch_size: int = DEFAULTS["NOISE_BATCH_SIZE"]
    timeout: float = DEFAULTS["NOISE_MODEL_TIMEOUT"]
    retries: int = DEFAULTS["NOISE_REVIEW_RETRIES"]
    max_region_chars: int = DEFAULTS["NOISE_MAX_REGION_CHARS"]
    max_region_sent_chars: int = DEFAULTS["NOISE_MAX_REGION_SENT_CHARS"]
    max_regions: int = DEFAULTS["NOISE_MAX_REGIONS"]
    # Fixed by design, not settings: fewer than 3 pages cannot tell template from content; 6 bound the cost.
    min_samples: int = 3
    max_samples: int = 6

    @classmethod
    def from_settings(cls, settings=None, environ=None) -> "NoiseSettings":
        """From Scrapy settings (or a dict) and the environment (OPENAI_BASE_URL, OPENAI_API_KEY, GIGFLOW_NOISE_MODEL)."""
        env = os.environ if environ is None else environ
        get = (lambda name: settings.get(name, DEFAULTS[name])) if settings is not None else DEFAULTS.get
        return cls(
            classifier=str(get("NOISE_CLASSIFIER")),
            model=str(get("NOISE_MODEL") or env.get("GIGFLOW_NOISE_MODEL", "")),
            base_url=env.get("OPENAI_BASE_URL", ""),
            api_key=env.get("OPENAI_API_KEY", ""),
            batch_size=int(get("NOISE_BATCH_SIZE")),
            timeout=float(get("NOISE_MODEL_TIMEOUT")),
            retries=int(get("NOISE_REVIEW_RETRIES")),
            max_region_chars=int(get("NOISE_MAX_REGION_CHARS")),
            max_region_sent_chars=int(get("NOISE_MAX_REGION_SENT_CHARS")),
            max_regions=int(get("NOISE_MAX_REGIONS")),
        )
