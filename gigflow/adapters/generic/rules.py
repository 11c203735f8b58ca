"""The two shapes of the generic adapter's field evidence, each a table read by one function.

- `Rule`: one piece of evidence about a candidate (a title candidate): when it applies, its weight is added to the
  candidate's score and its mark to the candidate's source (what the evidence says). `score` sums a table in order.
- `Veto`: what makes a candidate no candidate at all, whatever else holds (`vetoed` finds the first that applies).
- `Source`: one place a field may be read from (employer, location), with the confidence its evidence carries.
  `first_found` reads a table in order; the first source that finds a value gives the field.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gigflow.adapters.types import Evidence, EvidenceMethod


@dataclass(frozen=True)
class Rule:
    name: str
    applies: Callable[[Any, Any], bool]  # (candidate, context) -> whether the rule holds for it
    weight: float
    reason: str
    marks: str = ""  # appended to the candidate's source when the rule applies (shown in its evidence)


def score(candidate, context, rules: tuple[Rule, ...], start: float = 0.0) -> tuple[float, str, tuple[Rule, ...]]:
    """(score, marks, rules that applied): the weights of the rules that apply added to `start`, in table order."""
    total, marks, applied = start, "", []
    for rule in rules:
        if rule.applies(candidate, context):
            total += rule.weight
            marks += rule.marks
            applied.append(rule)
    return total, marks, tuple(applied)


@dataclass(frozen=True)
class Veto:
    name: str
    applies: Callable[[Any, Any], bool]  # (candidate, context) -> whether the candidate is out
    reason: str


def vetoed(candidate, context, vetoes: tuple[Veto, ...]) -> Veto | None:
    """The first veto of the table that applies to the candidate, or None."""
    return next((veto for veto in vetoes if veto.applies(candidate, context)), None)


@dataclass(frozen=True)
class Source:
    name: str
    find: Callable[[Any], tuple[str, str] | None]  # page -> (value, where the page says it) or None
    method: EvidenceMethod
    confidence: float
    reason: str


def first_found(page, sources: tuple[Source, ...], accept=None) -> tuple[str, Evidence] | None:
    """The value of the first source that finds one (and that ``accept(value)`` takes, when given), with its
    evidence."""
    for source in sources:
        found = source.find(page)
        if found and (accept is None or accept(found[0])):
            return found[0], Evidence(method=source.method, snippet_or_path=found[1], confidence=source.confidence)
    return None
