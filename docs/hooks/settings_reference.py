"""mkdocs hook: the configuration page's settings reference, generated from gigflow/settings.py at build time
(each setting with its default as written and the comment beside or above it), so the docs never drift from
the code. The page holds the marker <!-- settings-reference --> where the tables go."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

MARKER = "<!-- settings-reference -->"
SETTINGS = Path(__file__).resolve().parents[2] / "gigflow" / "settings.py"


def settings_groups(source: str) -> list[dict]:
    """[{intro, settings: [(name, default, comment)]}]: settings in file order, a group per blank-line-separated
    block; a comment block above a group is its intro, a comment on a setting's line (or continuing below it)
    describes that setting."""
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string.lstrip("#").strip()
    lines = source.splitlines()
    tree = ast.parse(source)
    groups: list[dict] = []
    previous_end = 0
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        if not isinstance(target, ast.Name) or not target.id.isupper():
            previous_end = getattr(node, "end_lineno", previous_end)
            continue
        start, end = node.lineno, node.end_lineno
        between = lines[previous_end:start - 1]
        above = []
        for number in range(start - 1, previous_end, -1):  # the comment block right above
            if number in comments and lines[number - 1].lstrip().startswith("#"):
                above.insert(0, comments[number])
            else:
                break
        if not groups or any(not line.strip() for line in between) or above:
            groups.append({"intro": " ".join(above), "settings": []})
        own = [comments[n] for n in range(start, end + 1) if n in comments and not lines[n - 1].lstrip().startswith("#")]
        default = ast.get_source_segment(source, node.value) if node.value is not None else ""
        if default and len(default) > 120 or "\n" in (default or ""):
            default = "(see gigflow/settings.py)"
        groups[-1]["settings"].append((target.id, default, " ".join(own)))
        previous_end = end
    for group in groups:  # a comment above a lone setting is that setting's description
        if len(group["settings"]) == 1 and group["intro"] and not group["settings"][0][2]:
            name, default, _ = group["settings"][0]
            group["settings"][0], group["intro"] = (name, default, group["intro"]), ""
    return [g for g in groups if g["settings"]]


def scrapy_defaults() -> set[str]:
    try:
        from scrapy.settings import default_settings
    except ImportError:
        return set()
    return {name for name in dir(default_settings) if name.isupper()}


def settings_markdown(source: str) -> str:
    scrapy_own = scrapy_defaults()
    out = []
    for group in settings_groups(source):
        if group["intro"]:
            out += [group["intro"], ""]
        out += ["| setting | default | meaning |", "|---|---|---|"]
        for name, default, comment in group["settings"]:
            if not comment and name in scrapy_own:
                comment = "Scrapy's own setting, set here for gigflow (see Scrapy's settings reference)"
            cell, meaning = default.replace("|", "\\|"), comment.replace("|", "\\|")
            out.append(f"| `{name}` | `{cell}` | {meaning} |")
        out.append("")
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files):
    if MARKER in markdown:
        return markdown.replace(MARKER, settings_markdown(SETTINGS.read_text(encoding="utf-8")))
    return markdown
