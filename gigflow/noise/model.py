"""The NoiseFilter stored in a configuration's JSONB `config.noiseFilter`."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gigflow.noise.signal import Signal

# 2: signatures normalise self-references (see gigflow.noise.signature); a rule removes every region its selector
# matches that has the rule's signature. Filters stored with version 1 keep version 1 signatures when applied.
NOISE_FILTER_VERSION = 2


class RemovalRule(BaseModel):
    model_config = ConfigDict(frozen=True)

    selector: str
    signature: str
    decision: Literal["remove", "keep"]
    reason: str = ""
    classifier: str  # which classifier decided: "openai:<model>" or "rules"
    text: str = ""  # the region's visible text when it was learned, shortened: what reports show
    # The region's path from <html> without positions (tags, roles, labels): where apply also looks when the
    # selector's positions shifted on a page (one more sibling before it), still requiring the signature.
    path: str = ""
    # The region's text lines as learned (``gigflow.noise.signature.region_lines``, each with whether it is link
    # text only): where a region's signature differs, apply still removes it when its lines are these with
    # bounded variation (``within_variation``). Empty: the signature alone decides (filters learned before).
    lines: list[tuple[str, bool]] = Field(default_factory=list)
    # A kept region's statements that state no fact (``gigflow.noise.statements``: a cookie sentence after the
    # copyright line, "Made by Agency" after a "·"), by their text as learned: apply removes them from the region
    # where it has the learned signature, and keeps the rest of it. Only on "keep" rules.
    drop_statements: list[str] = Field(default_factory=list)
    # A region removed because the rest of every sample restated its facts (``restated_regions``): those facts,
    # normalised. Apply removes it only from a page whose other text states each of them too: a page that states
    # the employer only there keeps the region. Empty: removed wherever it has the signature (other rules).
    restated: list[str] = Field(default_factory=list)
    # The rules classifier's job-fact signals behind a keep (its reason is their readable form): what learning
    # reads when it weighs a kept region again. Empty for the model's decisions and for filters learned before.
    signals: list[Signal] = Field(default_factory=list)


class SampleRef(BaseModel):
    model_config = ConfigDict(frozen=True)

    source_id: str
    source_version_id: int | None = None
    sha256: str
    url: str | None = None


class NoiseFilter(BaseModel):
    version: int = NOISE_FILTER_VERSION
    config_hash: str
    rules: list[RemovalRule] = Field(default_factory=list)
    samples: list[SampleRef] = Field(default_factory=list)
    completed_at: datetime | None = None

    def removal_rules(self) -> list[RemovalRule]:
        return [rule for rule in self.rules if rule.decision == "remove"]

    def statement_rules(self) -> list[RemovalRule]:
        """Kept regions with statements to remove from them."""
        return [rule for rule in self.rules if rule.decision == "keep" and rule.drop_statements]

    def fingerprint(self) -> str:
        """What preparation depends on: the removal rules' selectors and signatures, the statements removed from
        kept regions (not reasons or samples)."""
        import hashlib

        rules = sorted(f"{rule.selector}\x00{rule.signature}" + (f"\x00{rule.lines}" if rule.lines else "")
                       + (f"\x00restated\x00{rule.restated}" if rule.restated else "")
                       for rule in self.removal_rules())
        rules += sorted(f"{rule.selector}\x00{rule.signature}\x00statements\x00{rule.drop_statements}"
                        for rule in self.statement_rules())
        return hashlib.sha256("\x01".join(rules).encode("utf-8")).hexdigest()[:16]
