"""The preparation contract: what every format parser returns."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

DocumentFormat = Literal["html", "text", "markdown", "pdf", "json", "xml", "email"]


class PreparationStep(BaseModel):
    """One removal or retention made while preparing a document."""

    action: Literal["removed", "retained"]
    rule: str  # asset, job-card, click-item, noise-filter, ...
    selector: str | None = None
    path: str | None = None  # element path in the original tree
    reason: str = ""
    text_length: int = 0
    text: str = ""  # the region's visible text, shortened (what was removed or kept)


class PreparationReport(BaseModel):
    noise_filter: str | None = None  # fingerprint of the noise filter applied, if any
    steps: list[PreparationStep] = Field(default_factory=list)
    assets_removed: int = 0
    links_resolved: int = 0
    base_url: str | None = None
    errors: list[str] = Field(default_factory=list)
    review_requested: bool = False

    def removed(self, rule: str, *, selector=None, path=None, reason="", text_length=0, text="") -> None:
        self.steps.append(PreparationStep(action="removed", rule=rule, selector=selector, path=path,
                                          reason=reason, text_length=text_length, text=text))

    def retained(self, rule: str, *, selector=None, path=None, reason="", text_length=0, text="") -> None:
        self.steps.append(PreparationStep(action="retained", rule=rule, selector=selector, path=path,
                                          reason=reason, text_length=text_length, text=text))


class PreparedDocument(BaseModel):
    markdown: str
    title: str | None = None
    links: list[str] = Field(default_factory=list)
    format: DocumentFormat
    report: PreparationReport = Field(default_factory=PreparationReport)
