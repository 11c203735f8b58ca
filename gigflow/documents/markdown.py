"""The one place HTML becomes Markdown."""

from __future__ import annotations

import re

from lxml import html as lxml_html
from markdownify import MarkdownConverter

_BLANK_RUNS = re.compile(r"\n{3,}")


class GigflowConverter(MarkdownConverter):
    """markdownify with our habits: keep links and tables, no empty link text."""

    def convert_a(self, el, text, parent_tags):
        href = el.get("href")
        if href and not text.strip():
            text = el.get("title") or el.get("aria-label") or href
        return super().convert_a(el, text, parent_tags)


def html_to_markdown(tree) -> str:
    """Convert a prepared lxml tree (or HTML string) to Markdown."""
    markup = tree if isinstance(tree, str) else lxml_html.tostring(tree, encoding="unicode")
    text = GigflowConverter(heading_style="ATX", bullets="-", strip=None).convert(markup)
    return _BLANK_RUNS.sub("\n\n", text).strip() + "\n"
