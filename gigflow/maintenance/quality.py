"""The quality score (0-100) = completeness x evidence x freshness, and the publish gate. Pure functions.

- completeness: weighted presence of title .15, employer .15, location .15, description .25 (full from 300
  characters, in proportion below), job URL .1, apply URL .1, date posted .05, validThrough .05;
- evidence: the best sighting's extraction confidence, plus 0.1 per further source that saw it, at most 1;
- freshness: 1 when seen within a day, falling linearly to 0.5 at FRESHNESS_STALE_DAYS and to 0 at twice that;
  0 when expired or no sighting is live."""

from __future__ import annotations

WEIGHTS = {"title": 0.15, "employer": 0.15, "location": 0.15, "description": 0.25, "url": 0.1, "apply_url": 0.1,
           "date_posted": 0.05, "valid_through": 0.05}
FULL_DESCRIPTION = 300


def completeness(fields: dict) -> float:
    total = 0.0
    for name, weight in WEIGHTS.items():
        value = fields.get(name)
        if name == "description":
            total += weight * min(1.0, len(value or "") / FULL_DESCRIPTION)
        elif value:
            total += weight
    return total


def evidence(confidence: float, sources: int) -> float:
    return min(1.0, max(0.0, confidence) + 0.1 * max(0, sources - 1))


def freshness(age_days: float, stale_days: float, *, expired: bool, live: bool) -> float:
    if expired or not live:
        return 0.0
    if age_days <= 1:
        return 1.0
    return max(0.0, 1.0 - 0.5 * (age_days - 1) / max(stale_days - 1, 1e-9)) if age_days <= stale_days \
        else max(0.0, 0.5 - 0.5 * (age_days - stale_days) / stale_days)


def score(fields: dict, *, confidence: float, sources: int, age_days: float, stale_days: float, expired: bool,
          live: bool) -> tuple[int, dict]:
    parts = {"completeness": round(completeness(fields), 3), "evidence": round(evidence(confidence, sources), 3),
             "freshness": round(freshness(age_days, stale_days, expired=expired, live=live), 3)}
    return round(100 * parts["completeness"] * parts["evidence"] * parts["freshness"]), parts


def publishable(quality_score: int, *, min_score: int, link_status: str, expired: bool, duplicate: bool) -> list[str]:
    """Why a canonical job may not be published (empty: it may)."""
    reasons = []
    if quality_score < min_score:
        reasons.append(f"quality {quality_score} < {min_score}")
    if link_status == "broken":
        reasons.append("broken link")
    if expired:
        reasons.append("expired")
    if duplicate:
        reasons.append("duplicate")
    return reasons
