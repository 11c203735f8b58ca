"""Drift detectors: one per symptom, each comparing a run's health with the source's own recent complete runs.
Pure functions; a detector returns a ``Drift`` (its name, a reason a person can act on, the figures) or None."""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from statistics import median
from urllib.parse import parse_qsl, urlsplit


@dataclass(frozen=True)
class DriftSettings:
    density_drop: float = 0.3  # HEALTH_DRIFT_DENSITY_DROP: a field's share of jobs falls by this much (absolute)
    confidence_drop: float = 0.2  # HEALTH_DRIFT_CONFIDENCE_DROP
    volume_factor: float = 2.0  # HEALTH_DRIFT_VOLUME_FACTOR: jobs outside [median / f, median * f]
    missing_share: float = 0.2  # HEALTH_DRIFT_MISSING_SHARE: jobs without title or URL
    churn_share: float = 0.5  # HEALTH_DRIFT_CHURN_SHARE: new keys whose title a previous key had, per job
    churn_min: int = 3  # HEALTH_DRIFT_CHURN_MIN

    @classmethod
    def from_settings(cls, settings) -> "DriftSettings":
        return cls(settings.getfloat("HEALTH_DRIFT_DENSITY_DROP"), settings.getfloat("HEALTH_DRIFT_CONFIDENCE_DROP"),
                   settings.getfloat("HEALTH_DRIFT_VOLUME_FACTOR"), settings.getfloat("HEALTH_DRIFT_MISSING_SHARE"),
                   settings.getfloat("HEALTH_DRIFT_CHURN_SHARE"), settings.getint("HEALTH_DRIFT_CHURN_MIN"))


@dataclass(frozen=True)
class Drift:
    detector: str
    reason: str
    figures: dict

    def as_json(self) -> dict:
        return asdict(self)


def _jobs_median(history: list[dict]) -> float:
    return median(h.get("jobs") or 0 for h in history)


def empty_result(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    had = [h["jobs"] for h in history if h.get("jobs")]
    if current.get("jobs") == 0 and had:
        return Drift("empty_result", f"no job found; the last complete runs found {had}", {"history_jobs": had})
    return None


def field_density_drop(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    if not current.get("jobs"):
        return None  # an empty result is its own symptom
    dropped = {}
    for field, now in (current.get("field_density") or {}).items():
        before = [h["field_density"][field] for h in history if field in (h.get("field_density") or {})]
        if before and sum(before) / len(before) - now >= s.density_drop:
            dropped[field] = {"before": round(sum(before) / len(before), 3), "now": now}
    if dropped:
        names = ", ".join(f"{f} {v['before']:.0%} -> {v['now']:.0%}" for f, v in dropped.items())
        return Drift("field_density_drop", f"fewer jobs have {names}", dropped)
    return None


def confidence_drop(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    before = [h["mean_confidence"] for h in history if h.get("mean_confidence") is not None]
    now = current.get("mean_confidence")
    if now is None or not before:
        return None
    mean = sum(before) / len(before)
    if mean - now >= s.confidence_drop:
        return Drift("confidence_drop", f"mean extraction confidence fell from {mean:.2f} to {now:.2f}",
                     {"before": round(mean, 3), "now": now})
    return None


def new_error_status(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    seen = {code for h in history for code in (h.get("status_codes") or {})}
    new = sorted(code for code in (current.get("status_codes") or {}) if int(code) >= 400 and code not in seen)
    if new:
        return Drift("new_error_status", f"new error status {', '.join(new)}",
                     {"statuses": {c: current["status_codes"][c] for c in new}})
    return None


def new_content_type(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    seen = {t for h in history for t in (h.get("content_types") or {})}
    new = sorted(t for t in (current.get("content_types") or {}) if t not in seen)
    if new and seen:
        return Drift("new_content_type", f"new content type {', '.join(new)} (before: {', '.join(sorted(seen))})",
                     {"new": new, "before": sorted(seen)})
    return None


def volume_change(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    jobs, usual = current.get("jobs") or 0, _jobs_median(history)
    if not jobs or not usual:
        return None
    if jobs > usual * s.volume_factor or jobs < usual / s.volume_factor:
        kind = "spike" if jobs > usual else "drop"
        return Drift("volume_change", f"job volume {kind}: {jobs} jobs where the recent complete runs had a median "
                     f"of {usual:g} (band x{s.volume_factor:g})", {"jobs": jobs, "median": usual, "kind": kind})
    return None


def missing_title_url(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    density = current.get("field_density") or {}
    if not current.get("jobs"):
        return None
    missing = {f: round(1 - density.get(f, 0.0), 3) for f in ("title", "url")}
    before = {f: max((1 - (h.get("field_density") or {}).get(f, 1.0) for h in history), default=0.0)
              for f in ("title", "url")}
    bad = {f: share for f, share in missing.items() if share > s.missing_share and before[f] <= s.missing_share}
    if bad:
        return Drift("missing_title_url", "jobs without " + ", ".join(f"{f} ({v:.0%})" for f, v in bad.items()), bad)
    return None


def key_churn(current: dict, history: list[dict], s: DriftSettings) -> Drift | None:
    pairs = (current.get("churn") or {}).get("same_title_pairs") or []
    jobs = current.get("jobs") or 0
    if len(pairs) < s.churn_min or not jobs or len(pairs) / jobs < s.churn_share:
        return None
    params = tracking_parameters(pairs)
    hint = f"; strip the query parameters {', '.join(params)}" if params else ""
    return Drift("key_churn", f"{len(pairs)} new job keys carry the titles of earlier keys (a URL change){hint}",
                 {"pairs": len(pairs), "strip_parameters": params, "example": pairs[0]})


def tracking_parameters(pairs: list[list[str]]) -> list[str]:
    """Query parameters that differ between an earlier and a new URL of the same job in most pairs: what to
    strip so the keys stay stable."""
    counts: Counter[str] = Counter()
    for old, new in pairs:
        before, after = dict(parse_qsl(urlsplit(old).query)), dict(parse_qsl(urlsplit(new).query))
        for name in set(before) | set(after):
            if before.get(name) != after.get(name):
                counts[name] += 1
    return sorted(name for name, n in counts.items() if n * 2 >= len(pairs))


DETECTORS = (empty_result, field_density_drop, confidence_drop, new_error_status, new_content_type,
             volume_change, missing_title_url, key_churn)


# What an incomplete run can still show: it fetched part of the listing, so volumes and densities say nothing.
PARTIAL_RUN_DETECTORS = (empty_result, new_error_status, new_content_type)


def detect_drift(current: dict, history: list[dict], settings: DriftSettings | None = None, *,
                 complete: bool = True) -> list[Drift]:
    """Every symptom this run shows against ``history`` (the source's recent complete runs, newest first)."""
    if not history:
        return []
    settings = settings or DriftSettings()
    detectors = DETECTORS if complete else PARTIAL_RUN_DETECTORS
    return [drift for detector in detectors if (drift := detector(current, history, settings))]
