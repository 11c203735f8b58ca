"""One noise review: select current samples, validate their bytes, learn, save race-safely, report."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Callable, Protocol

from psycopg_pool import ConnectionPool
from pydantic import BaseModel

from gigflow.noise.current import DEFAULT_MAX_BYTES, get_current_noise_filter
from gigflow.noise.events import emit
from gigflow.noise.learn.lifecycle.procedures import (
    MIN_SAMPLES, SaveFilter, SelectSamples, configuration_state, read_sample, save_filter, select_samples,
)
from gigflow.noise.model import NoiseFilter, SampleRef
from gigflow.noise.learn.training import TrainingPage

logger = logging.getLogger(__name__)


class ReviewKind(StrEnum):
    source = "source"  # a finalized crawl of one of the configuration's sources
    scheduled = "scheduled"  # the reconciliation scan
    changed_content = "changed-content"  # preparation met a changed or ambiguous learned region
    manual = "manual"  # a person asked: no hourly limit, no previous decisions
    command = "command"  # `scrapy learn-noise --configuration`: no hourly limit, approved rules reused

    @property
    def automatic(self) -> bool:
        return self in (ReviewKind.source, ReviewKind.scheduled, ReviewKind.changed_content)

    @property
    def skips_unchanged_samples(self) -> bool:
        """Source and scheduled requests skip when the samples equal the saved ones; the others review anyway."""
        return self in (ReviewKind.source, ReviewKind.scheduled)


@dataclass
class LearnResult:
    noise_filter: NoiseFilter
    model_calls: int = 0
    tokens: int = 0
    report: object = None  # the learner's own report, for printing


class Learner(Protocol):
    def __call__(self, pages: list[TrainingPage], previous: NoiseFilter | None, *, config_hash: str,
                 manual: bool, configuration_id: int | None = None) -> LearnResult: ...


class ReviewOutcome(BaseModel):
    configuration_id: int
    kind: str
    status: str  # saved | conflict | skipped | deferred | dry-run
    detail: str = ""
    wait_seconds: float = 0.0
    rules: int = 0
    model_calls: int = 0
    tokens: int = 0
    samples_changed_during_review: bool = False
    noise_filter: NoiseFilter | None = None
    learner_report: object = None
    reprepared: object = None  # what ``after_save`` returned: the stored versions prepared again

    model_config = {"arbitrary_types_allowed": True}


def read_training_pages(pool: ConnectionPool, refs: list[SampleRef], strategy=None, company: str = ""
                        ) -> tuple[list[TrainingPage], list[str]]:
    """Raw bytes of each sample, checked against the stored sha256; a failed read does not count as a sample."""
    pages, failures = [], []
    with pool.connection() as conn:
        for ref in refs:
            row = read_sample(conn, ref.source_version_id)
            body = bytes(row.body) if row and row.body is not None else None
            if body is None:
                failures.append(f"version {ref.source_version_id}: missing")
            elif hashlib.sha256(body).hexdigest() != ref.sha256:
                failures.append(f"version {ref.source_version_id}: bytes do not match the stored sha256")
            else:
                pages.append(TrainingPage(url=ref.url or "", body=body, source_id=ref.source_id,
                                          source_version_id=ref.source_version_id, content_type=row.content_type,
                                          sha256=ref.sha256, strategy=strategy, company=company))
    return pages, failures


def sample_ref(page: TrainingPage) -> SampleRef:
    return SampleRef(source_id=page.source_id, source_version_id=page.source_version_id, sha256=page.sha256,
                     url=page.url or None)


def run_review(pool: ConnectionPool, configuration_id: int, kind: ReviewKind, learner: Learner, *,
               on_started: Callable[[], None] | None = None, cycle_wait: Callable[[], float] | None = None,
               max_filter_bytes: int = DEFAULT_MAX_BYTES, save: bool = True,
               after_save: Callable[[int], object] | None = None) -> ReviewOutcome:
    """One review. ``cycle_wait`` (automatic reviews) returns the seconds until the next allowed cycle: it is asked
    only after the unchanged-samples check, so a skipped request never uses a review slot. ``after_save`` runs
    with the configuration id once a new filter is saved (the worker prepares the stored versions again)."""
    state = configuration_state(pool, configuration_id)
    token = state.token
    current = get_current_noise_filter(state.config, state.config_hash, max_filter_bytes)
    selected = select_samples(pool, SelectSamples(configuration_id=configuration_id))
    pages, failures = read_training_pages(pool, selected.refs(), state.card_strategy(), state.company)
    outcome = ReviewOutcome(configuration_id=configuration_id, kind=kind.value, status="skipped")
    if len(pages) < MIN_SAMPLES:
        outcome.detail = f"{len(pages)} usable sample(s), {MIN_SAMPLES} needed" + (
            f"; unreadable: {'; '.join(failures)}" if failures else "")
        emit("review_skipped", configuration_id, kind=kind.value, reason=outcome.detail)
        return outcome
    refs = [sample_ref(page) for page in pages]
    if kind.skips_unchanged_samples and current is not None and set(refs) == set(current.samples):
        outcome.detail = "samples unchanged since the saved filter"
        emit("review_skipped", configuration_id, kind=kind.value, reason=outcome.detail)
        return outcome

    wait = cycle_wait() if cycle_wait else 0.0
    if wait > 0:
        outcome.status, outcome.wait_seconds = "deferred", wait
        outcome.detail = "one automatic review cycle per hour"
        return outcome
    if on_started:
        on_started()
    emit("review_started", configuration_id, kind=kind.value, samples=len(pages), unreadable=failures)
    learned = learner(pages, None if kind is ReviewKind.manual else current, config_hash=state.config_hash,
                      manual=kind is ReviewKind.manual, configuration_id=configuration_id)
    noise_filter = learned.noise_filter.model_copy(update={"samples": refs, "config_hash": state.config_hash})
    after = select_samples(pool, SelectSamples(configuration_id=configuration_id)).refs()
    outcome.samples_changed_during_review = set(after) != set(refs)
    outcome.rules, outcome.model_calls, outcome.tokens = len(noise_filter.removal_rules()), learned.model_calls, learned.tokens
    outcome.noise_filter, outcome.learner_report = noise_filter, learned.report
    emit("review_completed", configuration_id, kind=kind.value, rules=outcome.rules, calls=learned.model_calls,
         tokens=learned.tokens, samples_changed_during_review=outcome.samples_changed_during_review)
    if not save:
        outcome.status, outcome.detail = "dry-run", "nothing saved"
        return outcome

    saved = save_filter(pool, SaveFilter(configuration_id=configuration_id, expected_token=token,
                                         noise_filter=noise_filter))
    if saved.saved:
        outcome.status = "saved"
        emit("filter_saved", configuration_id, token=saved.token, rules=outcome.rules)
        if after_save is not None:
            outcome.reprepared = after_save(configuration_id)
    else:
        outcome.status, outcome.detail = "conflict", saved.conflict or ""
        emit("save_conflict", configuration_id, reason=saved.conflict)
    return outcome
