"""The extraction contract: what every adapter returns."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

# label: a label/value structure; gazetteer: a known place; config: the source's configured company (last
# resort); model: a model's proposal whose quote was found in the page; prepared: the filtered prepared document.
EvidenceMethod = Literal["jsonld", "ats-json", "css", "heading", "text-pattern", "feed", "mail-anchor", "meta",
                         "label", "gazetteer", "config", "model", "prepared"]


class Evidence(BaseModel):
    """Where one field's value came from, and how sure the adapter is of that field alone."""

    model_config = ConfigDict(frozen=True)

    method: EvidenceMethod
    snippet_or_path: str = Field(max_length=500)
    confidence: float = Field(ge=0.0, le=1.0)


class Salary(BaseModel):
    min: float | None = None
    max: float | None = None
    currency: str | None = None
    unit: str | None = None  # the period: HOUR, DAY, WEEK, MONTH, YEAR
    raw: str | None = None
    # min/max for a year where the period is known (40-hour weeks, 260 days, 52 weeks, 12 months).
    annual_min: float | None = None
    annual_max: float | None = None


class ExtractedJob(BaseModel):
    """One vacancy, named after the schema.org JobPosting fields, raw value kept beside normalised ones."""

    title: str
    url: str | None = None
    external_id: str | None = None
    employer: str | None = None
    location: str | None = None
    locations: list[str] = Field(default_factory=list)
    remote: str | None = None  # remote, hybrid, onsite
    salary: Salary | None = None
    salary_text: str | None = None  # the salary as the page shows it, also a pay scale with no amount
    employment_type: str | None = None
    # Contract and working pattern in one vocabulary (job_facts.EMPLOYMENT_TYPES): full_time, part_time, ...
    employment_types: list[str] = Field(default_factory=list)
    date_posted: str | None = None
    valid_through: str | None = None
    # The page's own notice that the vacancy is closed ("This position has been filled"): upkeep expires the job.
    closed_notice: str | None = None
    description: str | None = None
    requirements: str | None = None
    apply_url: str | None = None
    # Where the job came from when the content is not the employer's own page: platform alias, mailbox, route.
    provenance: dict[str, str] = Field(default_factory=dict)
    raw: dict[str, Any] = Field(default_factory=dict)
    evidence: dict[str, Evidence] = Field(default_factory=dict)

    def is_storable(self) -> bool:
        """No job without a title and an http(s) URL or a stable external id."""
        has_url = bool(self.url) and self.url.split(":", 1)[0].lower() in ("http", "https")
        return bool(self.title and self.title.strip()) and (has_url or bool(self.external_id))


class ExtractionContext(BaseModel):
    """What the caller knows beside the content: the source's configured company and the fetch time. Adapters
    read it and stay pure (no clock, no database)."""

    model_config = ConfigDict(frozen=True)

    company: str | None = None
    fetched_at: datetime | None = None


class NextPage(BaseModel):
    """How to ask for the next page of a listing payload; the spider sends it as is."""

    url: str
    method: Literal["GET", "POST"] = "GET"
    json_body: dict[str, Any] | None = None


class ExtractionResult(BaseModel):
    jobs: list[ExtractedJob] = Field(default_factory=list)
    parser_key: str
    parser_version: str
    confidence: float = Field(ge=0.0, le=1.0, default=0.0)
    warnings: list[str] = Field(default_factory=list)
    # "listing" results are candidates (one per vacancy, no details fetched); "detail" fills one vacancy.
    kind: Literal["detail", "listing"] | None = None
    # The next page of a paginated listing payload (Lever skip, SmartRecruiters offset, Workable nextPage).
    next_page: NextPage | None = None

    @classmethod
    def empty(cls, parser_key: str = "none", parser_version: str = "0", warning: str | None = None):
        return cls(parser_key=parser_key, parser_version=parser_version, warnings=[warning] if warning else [])


@runtime_checkable
class SourceAdapter(Protocol):
    """Turns content into an ExtractionResult. No network, no database, deterministic.

    An adapter with `uses_context = True` also takes `context=ExtractionContext(...)` (company, fetch time).
    """

    parser_key: str
    parser_version: str

    def supports(self, url: str, content: bytes | str) -> bool: ...

    def extract(self, content: bytes | str, *, url: str) -> ExtractionResult: ...
