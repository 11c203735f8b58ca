"""Plain-text learning report: what `scrapy learn-noise` prints."""

from __future__ import annotations

from gigflow.noise.learn.learner import LearningReport


def _ratio(pair: tuple[int, int]) -> str:
    kept, total = pair
    return f"{kept}/{total} ({kept / total:.1%})" if total else "0/0 (no job-fact signals found)"


def render_report(report: LearningReport) -> str:
    lines = [f"classifier: {report.classifier}",
             f"samples used: {len(report.samples)}"]
    lines += [f"  - {s.url or '?'}  source={s.source_id} version={s.source_version_id or '-'} sha256={s.sha256[:12]}"
              for s in report.samples]
    lines += [f"candidate regions: {report.candidates} (outer regions across samples)",
              f"learnable regions: {report.learnable}; sent for review: {report.regions_sent} distinct",
              f"model calls: {report.model_calls}; tokens: {report.prompt_tokens} prompt + "
              f"{report.completion_tokens} completion; review attempts: {report.attempts}"]
    lines += [f"  failed {failure}" for failure in report.failures]
    lines.append(f"rules reused: {len(report.reused)}")
    lines += [f"  reuse {r.selector}  [{r.classifier}] {r.reason}" for r in report.reused]
    lines += [f"  not reused {s.selector}: {s.reason}" for s in report.not_reused]
    lines.append(f"decisions: {len(report.decisions)}; removal rules learned: {len(report.learned)}")
    for r in report.decisions:
        lines.append(f"  {r.decision:6} {r.selector}  [{r.classifier}] {r.reason}")
        if r.text:
            lines.append(f"         text: {r.text}")
    lines.append(f"regions left in the page without review: {len(report.skipped)}")
    lines += [f"  stays  {s.selector}: {s.reason}" for s in report.skipped]
    lines.append(f"job-fact signals kept on the samples: before {_ratio(report.facts_before)}, "
                 f"after {_ratio(report.facts_after)}")
    return "\n".join(lines)
