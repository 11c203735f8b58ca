"""A model's field proposals, accepted only with an exact quote from the page. Pure: no model call here.

The optional model step (`gigflow.pipelines.model_fields`) asks for each field with the quote it was read from.
A proposal is accepted only when the quote occurs in the page (whitespace, case and Markdown emphasis folded)
and the value can be read from the quote; it fills only fields the adapters left empty, with `model` evidence
whose snippet is the quote. Everything else is rejected with a warning saying why.
"""

from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from gigflow.adapters.dates import normalise_date
from gigflow.adapters.text_patterns import normalise

MODEL_FIELDS = ("title", "employer", "location", "date_posted", "employment_type")
MAX_QUOTE = 300
MODEL_CONFIDENCE = 0.5
_MARKUP = re.compile(r"[*_`#>|\\]+|\[|\]\([^)]*\)")


class FieldProposal(BaseModel):
    model_config = ConfigDict(extra="forbid")

    value: str = Field(description="the field's value as the page states it")
    quote: str = Field(description="the exact words of the page the value was read from")


class ModelProposals(BaseModel):
    """What the model returns: every field present, null when the page does not state it."""

    model_config = ConfigDict(extra="forbid")

    title: FieldProposal | None
    employer: FieldProposal | None
    location: FieldProposal | None
    date_posted: FieldProposal | None
    employment_type: FieldProposal | None


def page_key(text: str) -> str:
    """Text as quotes are compared: Markdown emphasis and link targets out, whitespace and case folded."""
    return normalise(_MARKUP.sub(" ", text or ""))


def accept_proposals(job: dict, proposals: ModelProposals, page_text: str, *,
                     fetched_at: datetime | None = None) -> tuple[dict, list[str]]:
    """Fill the job's empty fields from proposals whose quote is in the page. Returns (job, warnings)."""
    page = page_key(page_text)
    warnings: list[str] = []
    job = {**job, "evidence": dict(job.get("evidence") or {})}
    for field in MODEL_FIELDS:
        proposal = getattr(proposals, field)
        if proposal is None or job.get(field):
            continue
        quote, value = proposal.quote.strip(), " ".join(proposal.value.split())
        reason = _rejection(field, value, quote, page, fetched_at)
        if reason:
            warnings.append(f"model: {field} {value[:60]!r} rejected: {reason}")
            continue
        if field == "date_posted":
            value = normalise_date(value, fetched_at=fetched_at)
        job[field] = value
        job["evidence"][field] = {"method": "model", "snippet_or_path": quote[:500], "confidence": MODEL_CONFIDENCE}
        if field == "location":
            job["locations"] = job.get("locations") or [value]
    return job, warnings


def _rejection(field: str, value: str, quote: str, page: str, fetched_at: datetime | None) -> str | None:
    if not value or not quote:
        return "no value or no quote"
    if len(quote) > MAX_QUOTE:
        return f"quote longer than {MAX_QUOTE} characters"
    key = page_key(quote)
    if not key or key not in page:
        return "quote not in the page"
    if field == "date_posted":
        day = normalise_date(value, fetched_at=fetched_at)
        if not day:
            return "not a date"
        # The quote states the date: the value's words are in it, or the quote itself reads as that day.
        quoted = normalise_date(quote, fetched_at=fetched_at)
        return None if page_key(value) in key or (quoted and quoted[:10] == day[:10]) else \
            "the quote does not state that date"
    if page_key(value) not in key:
        return "value not in its quote"
    return None

