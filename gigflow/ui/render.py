"""Pure rendering helpers: safe Markdown with highlighted evidence, the runs chart, the before/after diff."""

from __future__ import annotations

import difflib
import re
from html import escape
from typing import TYPE_CHECKING

from markdown_it import MarkdownIt
from markupsafe import Markup

from gigflow.safety.guard import CONTACT_SCHEMES

if TYPE_CHECKING:
    from gigflow.ui.library import RunRow

SAFE_SCHEMES = ("http://", "https://", "mailto:", *(f"{scheme}:" for scheme in CONTACT_SCHEMES))
MIN_HIGHLIGHT_CHARS = 3  # shorter values ("BE", "7") would mark half the page


def _markdown_it() -> MarkdownIt:
    # Raw HTML off, images shown as their alt text (a stored page must not make the browser fetch from its
    # site), and links only to http(s), mailto and the contact schemes (tel, sms, tg, whatsapp).
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.validateLink = lambda url: url.strip().lower().startswith(SAFE_SCHEMES)
    return md


_MD = _markdown_it()


def render_markdown(text: str, highlights: dict[str, str] | None = None) -> Markup:
    """HTML for stored Markdown; each occurrence of a highlight's text (key) is marked with its label (value)."""
    needles = {k: v for k, v in (highlights or {}).items() if k and len(k.strip()) >= MIN_HIGHLIGHT_CHARS}
    pattern = (re.compile("|".join(re.escape(k) for k in sorted(needles, key=len, reverse=True)))
               if needles else None)

    def text_rule(tokens, idx, options, env):
        content = tokens[idx].content
        if pattern is None:
            return escape(content)
        out, last = [], 0
        for match in pattern.finditer(content):
            out.append(escape(content[last:match.start()]))
            label = escape(needles[match.group(0)])
            out.append(f'<mark title="{label}" data-field="{label}">{escape(match.group(0))}</mark>')
            last = match.end()
        out.append(escape(content[last:]))
        return "".join(out)

    def link_open(tokens, idx, options, env):
        tokens[idx].attrSet("rel", "nofollow noopener noreferrer")
        return _MD.renderer.renderToken(tokens, idx, options, env)

    def image(tokens, idx, options, env):
        alt = "".join(child.content for child in tokens[idx].children or [])
        return f'<span class="image-alt">[image: {escape(alt)}]</span>'

    tokens = _MD.parse(text or "")
    rules = dict(_MD.renderer.rules)
    rules["text"], rules["link_open"], rules["image"] = text_rule, link_open, image
    renderer = type(_MD.renderer)(_MD)
    renderer.rules = rules
    return Markup(renderer.render(tokens, _MD.options, {}))


def evidence_highlights(fields: dict, evidence: dict) -> dict[str, str]:
    """Text to mark in the stored Markdown for each field: its evidence snippet when the Markdown can hold it
    (a text snippet), else the field's own value; the label names the field and how it was found."""
    marks: dict[str, str] = {}
    for name, ev in (evidence or {}).items():
        if not isinstance(ev, dict):
            continue
        label = f"{name}: {ev.get('method', '?')} {ev.get('snippet_or_path', '')}"[:200]
        candidates = [ev.get("snippet_or_path"), _plain_value(fields.get(name))]
        for text in candidates:
            if isinstance(text, str) and len(text.strip()) >= MIN_HIGHLIGHT_CHARS:
                marks.setdefault(text.strip()[:500], label)
    return marks


def _plain_value(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, list) and value and isinstance(value[0], str):
        return value[0]
    return None


def runs_chart(runs: list[RunRow], width: int = 640, height: int = 160) -> Markup:
    """An inline SVG bar chart, oldest run left: jobs found (new + updated + unchanged), new and gone per run,
    mean confidence as a line (0 to 1 over the full height) and "drift" above a run with drift (reasons on hover).
    Presentation attributes only (no inline style), so the strict CSP needs no exception."""
    if not runs:
        return Markup('<p class="muted">no runs yet</p>')
    runs = list(reversed(runs))
    series = [("found", "#4a78b5"), ("new", "#2e8b57"), ("gone", "#c0392b")]
    values = [{"found": r.jobs_new + r.jobs_updated + r.jobs_unchanged, "new": r.jobs_new, "gone": r.jobs_gone}
              for r in runs]
    top = max([max(v.values()) for v in values] + [1])
    plot_h, base = height - 30, height - 18
    slot = (width - 40) / len(runs)
    bar = max(2.0, min(14.0, slot / 4))
    parts = [f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
             f'xmlns="http://www.w3.org/2000/svg"><title>jobs found, new and gone per run (max {top})</title>',
             f'<line x1="30" y1="{base}" x2="{width}" y2="{base}" stroke="#888"/>',
             f'<text x="2" y="12" font-size="10" fill="#555">{top}</text>',
             f'<text x="2" y="{base}" font-size="10" fill="#555">0</text>']
    for i, (run, v) in enumerate(zip(runs, values)):
        x0 = 34 + i * slot
        for j, (key, colour) in enumerate(series):
            h = plot_h * v[key] / top
            tip = escape(f"run {run.id} ({run.spider}, {run.outcome or 'running'}): {key} {v[key]}")
            parts.append(f'<rect x="{x0 + j * bar:.1f}" y="{base - h:.1f}" width="{bar - 1:.1f}" height="{h:.1f}" '
                         f'fill="{colour}"><title>{tip}</title></rect>')
        if run.drift:
            why = escape("; ".join(f"{d.get('detector')}: {d.get('reason')}" for d in run.drift))
            parts.append(f'<text class="drift-mark" x="{x0:.1f}" y="{base - plot_h - 2:.1f}" font-size="11" '
                         f'font-weight="bold" fill="#b45309">drift<title>run {run.id}: {why}</title></text>')
        if len(runs) <= 20 or i % max(1, len(runs) // 10) == 0:
            parts.append(f'<text x="{x0:.1f}" y="{height - 4}" font-size="9" fill="#555">#{run.id}</text>')
    # Mean confidence (0..1, full height = 1) as a line over the bars, for runs that recorded it.
    points = [(34 + i * slot + 1.5 * bar, base - plot_h * float(r.mean_confidence))
              for i, r in enumerate(runs) if r.mean_confidence is not None]
    if points:
        parts.append('<polyline class="confidence" fill="none" stroke="#7c3aed" stroke-width="1.5" points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"><title>mean confidence (0 to 1)</title>'
                     '</polyline>')
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#7c3aed"/>' for x, y in points]
    series = series + [("confidence", "#7c3aed")]
    parts.append("</svg>")
    # The legend sits below the chart, in its own row: drawn inside the plot it covered the tallest bars.
    legend = "".join(f'<span class="legend-item"><svg width="10" height="10" aria-hidden="true"><rect width="10" '
                     f'height="10" fill="{colour}"/></svg> {key}</span>' for key, colour in series)
    return Markup('<figure class="runs-chart">' + "".join(parts) + f'<figcaption class="legend">{legend}'
                  '</figcaption></figure>')


def line_diff(before: str, after: str) -> list[tuple[str, str]]:
    """(kind, line) for the Markdown before and after the noise filter: kind is same, removed or added."""
    a, b = before.splitlines(), after.splitlines()
    out: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b).get_opcodes():
        if tag == "equal":
            out += [("same", line) for line in a[i1:i2]]
            continue
        out += [("removed", line) for line in a[i1:i2]]
        out += [("added", line) for line in b[j1:j2]]
    return out


EMPTY = (None, "", [], {})


def display_value(name: str, value) -> str | None:
    """A field's value as a person reads it: a salary as a range, a list joined, text as it is (no JSON escapes);
    None for an empty value (no row is shown for it)."""
    if value in EMPTY or (isinstance(value, dict) and not any(v not in EMPTY for v in value.values())):
        return None
    if isinstance(value, dict) and ({"min", "max", "value", "amount"} & value.keys()):
        return _money(value)
    if isinstance(value, list):
        parts = [display_value(name, v) for v in value]
        return "; ".join(p for p in parts if p) or None
    if isinstance(value, dict):
        return ", ".join(f"{k}: {display_value(k, v)}" for k, v in value.items()
                         if k != "raw" and v not in EMPTY) or None
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:,.2f}".rstrip("0").rstrip(".")
    return str(value)


def _money(salary: dict) -> str:
    def amount(v):
        return f"{v:,.0f}" if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)

    low = salary.get("min", salary.get("value", salary.get("amount")))
    high = salary.get("max")
    text = amount(low) if high in EMPTY or high == low else (
        f"{amount(low)}–{amount(high)}" if low not in EMPTY else f"up to {amount(high)}")
    if salary.get("currency"):
        text += f" {salary['currency']}"
    period = salary.get("period") or salary.get("unit")
    if period:
        text += f" per {str(period).lower()}"
    return text


def rule_region(selector: str) -> str:
    """The page region a noise rule sits in: its selector's first step below body (header, nav, footer, a
    top-level div...), so the rules of one region are read together."""
    steps = [s.strip() for s in selector.split(">") if s.strip()]
    while steps and steps[0].split(":")[0].split(".")[0].split("#")[0] in ("html", "body"):
        steps.pop(0)
    return steps[0] if steps else selector


def group_rules(rules) -> list[dict]:
    """Rules grouped by region (regions with a removal first, then by first rule): each group with its rules as
    (index, rule) and counts."""
    groups: dict[str, dict] = {}
    for index, rule in enumerate(rules, 1):
        group = groups.setdefault(rule_region(rule.selector), {"region": rule_region(rule.selector), "rules": []})
        group["rules"].append((index, rule))
    for group in groups.values():
        group["removed"] = sum(r.decision == "remove" for _, r in group["rules"])
        group["kept"] = len(group["rules"]) - group["removed"]
        group["rules"].sort(key=lambda pair: (pair[1].decision != "remove", pair[0]))
    return sorted(groups.values(), key=lambda g: (g["removed"] == 0, g["rules"][0][0]))
