"""Both Markdown converters behind MARKDOWN_CONVERTER: GFM tables, nested lists, links, headings, blank lines."""

from __future__ import annotations

import re

import pytest

from gigflow.documents import CONVERTERS, DEFAULT_CONVERTER, prepare_html

URL = "https://jobs.example.com/j/7"
PAGE = """<html><body>
<h1>Nurse</h1><h2>Pay</h2><h3>Shifts</h3>
<table>
  <tr><th>Grade</th><th>Hours | week</th><th>Pay</th></tr>
  <tr><td colspan="2">Trainee (any)</td><td>€2,400</td></tr>
  <tr><td rowspan="2">Senior</td><td>32</td><td>€3,900</td></tr>
  <tr><td>38</td><td>€4,600</td></tr>
</table>
<table><tr><td>No</td><td>header</td></tr><tr><td>row</td><td>two</td></tr></table>
<ul><li>Nights<ul><li>Weekend nights<ol><li>Saturday</li><li>Sunday</li></ol></li></ul></li><li>Days</li></ul>
<p><a href="/apply"></a> <a href="/docs" title="Terms"></a> <a href="/photo"><img src="/p.jpg" alt="Ward photo"></a></p>
<div></div><div></div><p></p><p></p><p>After the gap</p>
</body></html>"""


@pytest.fixture(params=sorted(CONVERTERS))
def markdown(request):
    return prepare_html(PAGE, URL, converter=request.param).markdown


def test_tables_are_gfm_with_a_header_row_escaped_pipes_and_padded_spans(markdown):
    rows = [line for line in markdown.splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]] for row in rows]
    assert cells[0] == ["Grade", "Hours \\| week", "Pay"]
    assert set("".join(cells[1])) <= {"-", ":"}
    assert cells[2] == ["Trainee (any)", "", "€2,400"]
    assert cells[3] == ["Senior", "32", "€3,900"]
    assert cells[4] == ["", "38", "€4,600"]
    # a table without th still gets a header row (its first row), as GFM requires
    assert cells[5] == ["No", "header"] and set("".join(cells[6])) <= {"-", ":"} and cells[7] == ["row", "two"]


def test_nested_lists_are_indented_to_the_parent_content(markdown):
    assert "- Nights\n  - Weekend nights\n    1. Saturday\n    2. Sunday\n- Days" in markdown


def test_links_are_absolute_and_never_empty(markdown):
    assert "<https://jobs.example.com/apply>" in markdown  # named by its URL: an autolink
    assert "[Terms](https://jobs.example.com/docs" in markdown
    assert "![Ward photo](https://jobs.example.com/p.jpg)" in markdown
    assert "[](" not in markdown


def test_headings_are_kept_and_blank_runs_collapsed(markdown):
    assert markdown.startswith("# Nurse\n\n## Pay\n\n### Shifts\n")
    assert "\n\n\n" not in markdown and markdown.endswith("After the gap\n")


def test_the_default_converter_is_the_fast_one():
    assert DEFAULT_CONVERTER == "direct"


def test_an_unknown_converter_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown MARKDOWN_CONVERTER 'pandoc'; choose one of"):
        prepare_html(PAGE, URL, converter="pandoc")


@pytest.mark.parametrize("name", sorted(CONVERTERS))
def test_html_given_as_text_with_comments_converts_in_pieces_in_order(name):
    # A string keeps its comments (the page parser drops them); a comment among the children of a container that is
    # split into pieces used to stop the conversion (ValueError from counting a comment's elements).
    html = "<div>" + "".join(f"<!-- note {i} --><section><p>Part {i}</p><p>text</p></section>" for i in range(40)) + "</div>"
    markdown = CONVERTERS[name](html, chunk_elements=10)
    positions = [markdown.index(f"Part {i}\n") for i in range(40)]
    assert positions == sorted(positions)
    assert "note" not in markdown
