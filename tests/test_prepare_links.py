"""Links and media resolve against the page URL and any usable <base href>, in its several forms."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from gigflow.documents import prepare_html
from gigflow.documents.html import HtmlFormat
from gigflow.documents.types import PreparationReport
from helpers import FIXTURES

TEMPLATE = (FIXTURES / "documents" / "base_forms.html").read_text()
PAGE_URL = "https://jobs.example.com/nl/vacatures/field-engineer"


@pytest.mark.parametrize("bases, expected_base", [
    ("", "https://jobs.example.com/nl/vacatures/"),
    ('<base href="https://careers.example.org/en/">', "https://careers.example.org/en/"),
    ('<base href="/careers/">', "https://jobs.example.com/careers/"),  # relative base
    ('<base href="../">', "https://jobs.example.com/nl/"),  # relative with dots
    ('<base href="javascript:void(0)/">', "https://jobs.example.com/nl/vacatures/"),  # outside http(s): ignored
    ('<base href="file:///etc/">', "https://jobs.example.com/nl/vacatures/"),
    ('<base target="_blank"><base href="">', "https://jobs.example.com/nl/vacatures/"),  # no usable href
    ('<base href="data:text/html,x"><base href="/second/"><base href="/third/">',
     "https://jobs.example.com/second/"),  # several bases: the first usable one
])
def test_every_link_resolves_against_the_usable_base(bases, expected_base):
    doc = prepare_html(TEMPLATE.replace("{bases}", bases), PAGE_URL)
    md = doc.markdown
    assert f"[Apply]({expected_base}apply/42)" in md
    assert f"{expected_base}img/team.jpg" in md
    origin = "/".join(expected_base.split("/")[:3])
    assert f"[About]({origin}/about)" in md
    assert "[Brochure](https://cdn.example/x.pdf)" in md
    assert "[Mail us](mailto:jobs@example.com)" in md
    # a fragment points at the current page, never at the base
    assert f"[Pay]({PAGE_URL}#pay)" in md
    assert f"{expected_base}apply/42" in doc.links and f"{PAGE_URL}#pay" in doc.links
    assert doc.report.base_url == (None if expected_base == "https://jobs.example.com/nl/vacatures/" else expected_base)


def test_srcset_and_form_actions_are_absolute_and_the_base_element_is_gone():
    report = PreparationReport()
    root, _ = HtmlFormat().clean_tree(TEMPLATE.replace("{bases}", '<base href="/careers/">').encode(), PAGE_URL,
                                      report=report)
    img = root.find(".//img")
    assert img.get("srcset") == ("https://jobs.example.com/careers/img/team-2x.jpg 2x, "
                                 "https://jobs.example.com/img/team-3x.jpg 3x")
    assert root.find(".//form").get("action") == "https://jobs.example.com/careers/submit"
    assert root.find(".//base") is None
    assert report.links_resolved >= 6


def test_the_raw_body_is_never_modified():
    body = TEMPLATE.replace("{bases}", "").encode()
    before = bytes(body)
    prepare_html(body, PAGE_URL)
    assert body == before
    # the parsed copy is what changed
    assert b'href="apply/42"' in body
    assert lxml_html.fromstring(body).find(".//a").get("href") == "apply/42"


def test_an_href_written_across_lines_is_the_link_a_browser_follows():
    # WHATWG URL parsing: leading/trailing C0 controls and spaces trimmed, tabs and newlines removed anywhere.
    page = ('<html><body><a href="\n  https://jobs.example.com/apply?vacancy=\n\t42&amp;src=site  ">Apply now</a>'
            '<a href=" /nl/vacatures/field-\nengineer/apply ">Apply here</a>'
            '<a href="\tmailto:jobs@\nexample.com ">Mail us</a></body></html>')
    doc = prepare_html(page, PAGE_URL)
    assert "[Apply now](https://jobs.example.com/apply?vacancy=42&src=site)" in doc.markdown
    assert "[Apply here](https://jobs.example.com/nl/vacatures/field-engineer/apply)" in doc.markdown
    assert "[Mail us](mailto:jobs@example.com)" in doc.markdown
    assert doc.links[:2] == ["https://jobs.example.com/apply?vacancy=42&src=site",
                             "https://jobs.example.com/nl/vacatures/field-engineer/apply"]


@pytest.mark.parametrize("converter", ["direct", "html-to-markdown", "markdownify"])
def test_a_mailto_link_showing_its_address_keeps_its_target(converter):
    # converters write such a link as an email autolink (<jobs@example.com>); escaped, it lost the apply address
    page = (b'<html><body><main><h1>Engineer</h1><p>Send your CV to <a href="mailto:jobs@example.com">'
            b'jobs@example.com</a>. Text &lt;not@link.example&gt; stays text.</p></main></body></html>')
    md = prepare_html(page, PAGE_URL, converter=converter).markdown
    assert "[jobs@example.com](mailto:jobs@example.com)" in md
    assert "\\<not@link.example>" in md
