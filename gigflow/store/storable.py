"""What PostgreSQL and every later reader can take: finite numbers and valid Unicode. Checked before storage.

A hostile payload (JSON-LD ``"minValue": NaN``, ``Infinity``, ``1e999``, a lone ``\\ud800``) must cost one field,
never the job or the run: a job field holding a non-finite number or a string that is not valid Unicode (a lone
surrogate, a NUL, which jsonb cannot hold) is dropped with a warning; the fields a job cannot be without
(title, url, external_id) and the page's own strings are repaired instead (U+FFFD for what cannot be encoded)."""

from __future__ import annotations

import math
import re
from typing import Any

REPAIRED_FIELDS = ("title", "url", "external_id")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def problem(value: Any) -> str | None:
    """Why ``value`` (any JSON-like value) cannot be stored as it is, or None."""
    if isinstance(value, float):
        return None if math.isfinite(value) else f"a non-finite number ({value})"
    if isinstance(value, str):
        if "\x00" in value:
            return "a NUL character"
        if _SURROGATE.search(value):
            return "invalid Unicode (a lone surrogate)"
        return None
    if isinstance(value, dict):
        for key, inner in value.items():
            found = problem(key) if isinstance(key, str) else None
            found = found or problem(inner)
            if found:
                return found
        return None
    if isinstance(value, (list, tuple)):
        return next((found for found in map(problem, value) if found), None)
    return None


def repaired(value: Any) -> Any:
    """The value with every string made valid (surrogates -> U+FFFD, NUL removed) and non-finite numbers None."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        if "\x00" in value:
            value = value.replace("\x00", "")
        return _SURROGATE.sub("\ufffd", value) if _SURROGATE.search(value) else value
    if isinstance(value, dict):
        return {repaired(k): repaired(v) for k, v in value.items()}
    if isinstance(value, list):
        return [repaired(v) for v in value]
    if isinstance(value, tuple):
        return tuple(repaired(v) for v in value)
    return value


def storable_job(job: dict) -> list[str]:
    """Make one extracted job storable in place; the warnings say which fields went and why."""
    warnings = []
    evidence = job.get("evidence") if isinstance(job.get("evidence"), dict) else {}
    for name in list(job):
        if name in ("evidence", "raw"):
            continue
        found = problem(job[name])
        if not found:
            continue
        if name in REPAIRED_FIELDS:
            job[name] = repaired(job[name])
            warnings.append(f"field {name!r} held {found}: repaired")
        else:
            del job[name]
            evidence.pop(name, None)
            warnings.append(f"field {name!r} dropped: it held {found}")
    if evidence and problem(evidence):
        job["evidence"] = repaired(evidence)
    if "raw" in job and problem(job["raw"]):
        job["raw"] = repaired(job["raw"])
    return warnings


def storable_item(item) -> list[str]:
    """Make a page item storable in place (its jobs, then its own strings); returns the warnings."""
    warnings = []
    for index, job in enumerate(item.get("jobs") or []):
        if isinstance(job, dict):
            warnings += [f"job {index}: {w}" for w in storable_job(job)]
    for name, value in list(item.items()):
        if name in ("jobs", "body") or isinstance(value, (bytes, bytearray)):
            continue
        found = problem(value)
        if found:
            item[name] = repaired(value)
            warnings.append(f"{name} held {found}: repaired")
    return warnings
