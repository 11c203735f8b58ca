"""Every labelled fact of the shared corpus survives preparation into Markdown, with either converter.

Normalisation follows ../shared/tools/eval_markdown.py: link and image syntax become ' text url ', Markdown
emphasis, code, heading, table and quote marks become spaces, entities unescaped, whitespace collapsed;
apply_url facts must appear verbatim.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from gigflow.documents import CONVERTERS, DocumentPreparer
from helpers import SHARED

CORPUS = SHARED / "corpus"
FACTS = CORPUS / "facts.jsonl"
pytestmark = pytest.mark.skipif(not FACTS.exists(), reason="the shared corpus is not beside this checkout")

_WS = re.compile(r"\s+")
_MARKS = re.compile(r"[*_`#|>]+")


def _norm(text: str) -> str:
    return _WS.sub(" ", html.unescape(text)).strip()


def normalise_markdown(markdown: str) -> str:
    markdown = re.sub(r"!\[([^\]]*)\]\(([^)\s]*)[^)]*\)", r" \1 \2 ", markdown)
    markdown = re.sub(r"\[([^\]]*)\]\(([^)\s]*)[^)]*\)", r" \1 \2 ", markdown)
    markdown = re.sub(r"<(https?://[^>]+)>", r" \1 ", markdown)
    return _norm(_MARKS.sub(" ", markdown.replace("\\", "")))


def normalise_fact(text: str) -> str:
    return _norm(_MARKS.sub(" ", text.replace("\\", "")))


def labelled_pages():
    pages = [json.loads(line) for line in FACTS.read_text("utf-8").splitlines() if line.strip()]
    return [page for page in pages if page.get("facts")]


@pytest.mark.parametrize("converter", sorted(CONVERTERS))
def test_every_fact_is_kept(converter):
    client = DocumentPreparer(converter)
    total, lost = 0, []
    for page in labelled_pages():
        body = (CORPUS / page["page"]).read_bytes()
        document = client.prepare(body, page["url"] or f"https://corpus.invalid/{page['page']}")
        assert not document.report.errors, (page["page"], document.report.errors)
        normalised = normalise_markdown(document.markdown)
        for fact in page["facts"]:
            total += 1
            if fact["kind"] == "apply_url":
                kept = fact["text"] in document.markdown
            else:
                kept = normalise_fact(fact["text"]) in normalised
            if not kept:
                lost.append((page["page"], fact["kind"], fact["text"][:80]))
    assert total > 800
    assert lost == [], f"{len(lost)}/{total} facts lost"
