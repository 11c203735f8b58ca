"""Pure rendering helpers: safe Markdown with highlighted evidence, the runs chart, the before/after diff."""

from __future__ import annotations

import difflib
import re
from html import escape

from markdown_it import MarkdownIt
from markupsafe import Markup

SAFE_SCHEMES = ("http://", "https://", "mailto:")
MIN_HIGHLIGHT_CHARS = 3  # shorter values ("BE", "7") would mark half the page


def _markdown_it() -> MarkdownIt:
    # Raw HTML off, images shown as their alt text (a stored page must not make the browser fetch from its
    # site), and links only to http(s) and mailto.
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


def runs_chart(runs: list[dict], width: int = 640, height: int = 160) -> Markup:
    """An inline SVG bar chart, oldest run left: jobs found (new + updated + unchanged), new and gone per run,
    mean confidence as a line (0 to 1 over the full height) and "drift" above a run with drift (reasons on hover).
    Presentation attributes only (no inline style), so the strict CSP needs no exception."""
    if not runs:
        return Markup('<p class="muted">no runs yet</p>')
    runs = list(reversed(runs))
    series = [("found", "#4a78b5"), ("new", "#2e8b57"), ("gone", "#c0392b")]
    values = [{"found": r["jobs_new"] + r["jobs_updated"] + r["jobs_unchanged"], "new": r["jobs_new"],
               "gone": r["jobs_gone"]} for r in runs]
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
            tip = escape(f"run {run['id']} ({run['spider']}, {run['outcome'] or 'running'}): {key} {v[key]}")
            parts.append(f'<rect x="{x0 + j * bar:.1f}" y="{base - h:.1f}" width="{bar - 1:.1f}" height="{h:.1f}" '
                         f'fill="{colour}"><title>{tip}</title></rect>')
        if run.get("drift"):
            why = escape("; ".join(f"{d.get('detector')}: {d.get('reason')}" for d in run["drift"]))
            parts.append(f'<text class="drift-mark" x="{x0:.1f}" y="{base - plot_h - 2:.1f}" font-size="11" '
                         f'font-weight="bold" fill="#b45309">drift<title>run {run["id"]}: {why}</title></text>')
        if len(runs) <= 20 or i % max(1, len(runs) // 10) == 0:
            parts.append(f'<text x="{x0:.1f}" y="{height - 4}" font-size="9" fill="#555">#{run["id"]}</text>')
    # Mean confidence (0..1, full height = 1) as a line over the bars, for runs that recorded it.
    points = [(34 + i * slot + 1.5 * bar, base - plot_h * float(r["mean_confidence"]))
              for i, r in enumerate(runs) if r.get("mean_confidence") is not None]
    if points:
        parts.append('<polyline class="confidence" fill="none" stroke="#7c3aed" stroke-width="1.5" points="'
                     + " ".join(f"{x:.1f},{y:.1f}" for x, y in points) + '"><title>mean confidence (0 to 1)</title>'
                     '</polyline>')
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#7c3aed"/>' for x, y in points]
    series = series + [("confidence", "#7c3aed")]
    legend_x = width - 240
    for j, (key, colour) in enumerate(series):
        parts.append(f'<rect x="{legend_x + j * 55}" y="2" width="10" height="10" fill="{colour}"/>'
                     f'<text x="{legend_x + j * 55 + 13}" y="11" font-size="10" fill="#333">{key}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))


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
