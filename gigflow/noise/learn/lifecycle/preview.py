"""What a source's noise filter would remove, learned from its stored versions now, whatever the source's status.

Nothing is saved: the filter is learned as a review would learn it (approved rules of the current filter reused)
and applied to the samples it was learned on, so the preview shows, rule by rule, the text each removes, and the
regions kept for job facts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from psycopg_pool import ConnectionPool

from gigflow.documents import prepare_html
from gigflow.noise.current import DEFAULT_MAX_BYTES, get_current_noise_filter
from gigflow.noise.learn.classifier import make_classifier
from gigflow.noise.learn.learner import LearningReport, learn_noise_filter
from gigflow.noise.learn.lifecycle.procedures import (MIN_SAMPLES, USABLE_SAMPLE, SelectedSamples,
                                                      configuration_state, select_source_samples)
from gigflow.noise.learn.lifecycle.review import read_training_pages
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.noise.model import NoiseFilter
from gigflow.sources.repository import get_source


@dataclass
class Preview:
    source_id: str
    status: str
    configuration_id: int
    selected: SelectedSamples
    failures: list[str] = field(default_factory=list)
    noise_filter: NoiseFilter | None = None
    report: LearningReport | None = None
    removed: dict = field(default_factory=dict)  # selector -> [(url, removed text)]
    message: str = ""  # why nothing was learned

    @property
    def learned(self) -> bool:
        return self.noise_filter is not None


def preview_source(pool: ConnectionPool, source_id: str, settings: NoiseSettings, classifier_kind: str | None = None,
                   max_filter_bytes: int = DEFAULT_MAX_BYTES) -> Preview:
    record = get_source(pool, source_id)
    state = configuration_state(pool, record.configuration_id)
    selected = select_source_samples(pool, source_id, record.configuration_id)
    pages, failures = read_training_pages(pool, selected.refs(), state.card_strategy(), state.company)
    preview = Preview(source_id=source_id, status=record.config.status, configuration_id=record.configuration_id,
                      selected=selected, failures=failures)
    if len(pages) < MIN_SAMPLES:
        stored = len(selected.samples) + len(selected.skipped)
        preview.message = (f"source {source_id!r} (status {record.config.status}) has {len(pages)} usable version(s) "
                           f"among {stored} stored URL(s); {USABLE_SAMPLE}")
        return preview
    current = get_current_noise_filter(state.config, state.config_hash, max_filter_bytes)
    classifier = make_classifier(classifier_kind or settings.classifier, settings)
    result = learn_noise_filter(pages, current, classifier, config_hash=state.config_hash, settings=settings)
    preview.noise_filter, preview.report = result.filter, result.report
    for page in pages:
        document = prepare_html(page.body, page.url, content_type=page.content_type, strategy=page.strategy,
                                noise_filter=result.filter)
        for step in document.report.steps:
            if step.rule == "noise-filter" and step.action == "removed":
                preview.removed.setdefault(step.selector, []).append((page.url, step.text or ""))
    return preview


def render_preview(preview: Preview) -> str:
    lines = [f"preview of source {preview.source_id!r} (status {preview.status}, configuration "
             f"{preview.configuration_id}); nothing is saved"]
    if not preview.learned:
        lines.append(preview.message)
        lines += [f"  not usable: {reason}" for reason in preview.selected.skipped]
        lines += [f"  unreadable: {reason}" for reason in preview.failures]
        return "\n".join(lines)
    report = preview.report
    lines.append(f"learned from {len(report.samples)} sample(s) with the {report.classifier} classifier")
    rules = preview.noise_filter.removal_rules()
    lines.append(f"would remove ({len(rules)} rule(s)):")
    for rule in rules:
        lines.append(f"  - {rule.selector}  [{rule.classifier}] {rule.reason}")
        for url, text in preview.removed.get(rule.selector, [])[:3]:
            lines.append(f"      {url}: {text}")
    kept = [rule for rule in preview.noise_filter.rules if rule.decision == "keep"]
    lines.append(f"kept for job facts ({len(kept)} region(s)):")
    lines += [f"  - {rule.selector}  {rule.reason}" + (f"\n      {rule.text}" if rule.text else "") for rule in kept]
    before, after = report.facts_before, report.facts_after
    lines.append(f"job-fact signals on the samples: {after[0]}/{after[1]} kept with the filter "
                 f"({before[0]}/{before[1]} without)")
    return "\n".join(lines)
