"""Bounded resources on big pages (figures: make bench-memory): conversion in pieces keeps every block in order,
pages over PREPARATION_MAX_BYTES are streamed to text without a tree, and HTML adapters after JSON-LD read only
the first EXTRACTION_MAX_HTML_BYTES."""

import json

from gigflow.adapters import extract
from gigflow.documents import DocumentPreparer
from gigflow.documents.markdown import CHUNK_ELEMENTS, direct_to_markdown, h2m_to_markdown, markdownify_to_markdown

URL = "https://jobs.example.org/vacancy/1"


def big_page(sections: int) -> str:
    block = ("<section><h2>Part {i}</h2><p>Salary &euro;{i} &lt;b&gt; <a href='/t/{i}'>team {i}</a></p>"
             "<ul><li>one {i}</li><li>two {i}</li></ul></section>")
    return "<div id='page'>" + "".join(block.format(i=i) for i in range(sections)) + "</div><p>Apply by 1 May</p>"


def test_a_large_tree_is_converted_in_pieces_with_every_block_in_order():
    from lxml import html as lxml_html

    page = big_page(CHUNK_ELEMENTS // 3)  # several pieces
    for convert in (direct_to_markdown, h2m_to_markdown, markdownify_to_markdown):
        markdown = convert(lxml_html.fragment_fromstring(page, create_parent="div"))
        positions = [markdown.index(f"## Part {i}\n") for i in range(0, CHUNK_ELEMENTS // 3, 97)]
        assert positions == sorted(positions)
        assert markdown.rstrip().endswith("Apply by 1 May")
        assert "Salary €1665 \\<b> team 1665" in markdown  # a relative link has no allowed target: text only
        assert markdown.count("- one ") == CHUNK_ELEMENTS // 3


def test_a_page_over_the_preparation_limit_is_streamed_to_text():
    page = ("<html><head><title>Big</title><script>var x = '<p>not text</p>';</script></head><body>"
            + big_page(20_000) + "</body></html>").encode()
    client = DocumentPreparer(max_bytes=len(page) // 2)
    document = client.prepare(page, URL, "text/html")
    assert "over PREPARATION_MAX_BYTES" in document.report.errors[0]
    assert document.markdown.rstrip().endswith("Apply by 1 May") and "not text" not in document.markdown
    assert "Salary €19999 \\<b> team 19999" in document.markdown  # text stays text here too
    assert document.title == "Big" and "https://jobs.example.org/t/19999" in document.links


def test_html_adapters_read_only_the_start_of_a_huge_body_and_say_so():
    posting = json.dumps({"@context": "https://schema.org", "@type": "JobPosting", "title": "Data Engineer",
                          "hiringOrganization": {"@type": "Organization", "name": "Acme"}})
    filler = "<p>" + "x" * 1000 + "</p>"
    page = (f"<html><body><h1>Engineer</h1>{filler * 3000}"
            f"<script type='application/ld+json'>{posting}</script></body></html>").encode()
    result = extract(page, url=URL, content_type="text/html", max_html_bytes=1_000_000)
    assert [job.title for job in result.jobs] == ["Data Engineer"]  # JSON-LD reads the whole body
    assert any("over EXTRACTION_MAX_HTML_BYTES" in w for w in result.warnings)
