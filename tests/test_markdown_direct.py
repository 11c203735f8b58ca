"""The direct writer (Markdown straight from the prepared lxml tree): the structure it writes, and the link work it
folds in (listing, unlinking tabindex="-1" chips, naming empty links) giving what html.prepare_links gives."""

from __future__ import annotations

from gigflow.documents import DocumentPreparer, prepare_html

URL = "https://jobs.example.org/vacancy/1"


def direct(body: str) -> str:
    return prepare_html(f"<html><body>{body}</body></html>", URL, converter="direct").markdown


def test_code_quotes_and_breaks_keep_their_shape():
    markdown = direct("<p>Line one<br> line two</p><blockquote><p>Quoted</p><p>twice</p></blockquote>"
                      "<pre>if a[0]:\n    ``` run()</pre><p>Call <code>x`y</code> now</p>")
    assert "Line one\\\nline two" in markdown
    assert "> Quoted\n>\n> twice" in markdown
    assert "````\nif a\\[0\\]:\n    ``` run()\n````" in markdown  # a fence longer than any backtick run inside
    assert "Call ``x`y`` now" in markdown


def test_a_link_around_blocks_and_a_layout_table_stay_on_one_line():
    markdown = direct("<a href='/jobs/2'><div><h3>Welder</h3><p>Leeds</p></div></a>"
                      "<table><tr><td><h2>Pay</h2><ul><li>£30k</li><li>pension | match</li></ul></td></tr></table>")
    assert "[Welder Leeds](https://jobs.example.org/jobs/2)" in markdown
    assert "| Pay £30k pension \\| match |\n| --- |" in markdown


def test_the_writer_lists_unlinks_and_names_links_as_prepare_links_does():
    deep = "<div>" * 260 + "<a href='/deep'>deep</a>" + "</div>" * 260
    page = (f"<html><body><h1>Nurse</h1><p><a href='/apply'>Apply</a> <a href='/loc' tabindex=' -1'>Leeds</a>"
            f"<a href='/share' aria-label='Share'><img src='/s.png'></a> <a href='/logo'><img src='/l.png' alt='Logo'></a>"
            f"<a href='javascript:void(0)'> </a> <a href='https://user:pw@jobs.example.org/x'>x</a>"
            f"<a href='https://jobs.example.org/apply'>again</a></p><pre><a href='/in-code'>code</a></pre>{deep}"
            f"</body></html>").encode()
    documents = {name: DocumentPreparer(name).prepare(page, URL, "text/html") for name in ("direct", "html-to-markdown")}
    ours, theirs = documents["direct"], documents["html-to-markdown"]
    assert ours.links == theirs.links
    assert ours.links == ["https://jobs.example.org/apply", "https://jobs.example.org/loc",
                          "https://jobs.example.org/share", "https://jobs.example.org/logo",
                          "https://jobs.example.org/in-code", "https://jobs.example.org/deep"]
    # the same report; the direct path unlinks while writing, after depth flattening, so its steps come in that order
    steps = [ours.report.model_dump().pop("steps"), theirs.report.model_dump().pop("steps")]
    assert sorted(steps[0], key=lambda step: step["rule"]) == sorted(steps[1], key=lambda step: step["rule"])
    assert ({**ours.report.model_dump(), "steps": None} == {**theirs.report.model_dump(), "steps": None})
    assert any(step.rule == "unfocusable-link" for step in ours.report.steps)
    markdown = ours.markdown
    assert "[Apply](https://jobs.example.org/apply) Leeds" in markdown  # the chip is its text
    assert "[Share](https://jobs.example.org/share)" in markdown and "s.png" not in markdown
    assert "[![Logo](https://jobs.example.org/l.png)](https://jobs.example.org/logo)" in markdown
    assert "javascript" not in markdown and "pw@" not in markdown


def test_page_text_cannot_forge_the_writers_markers():
    # The writer marks structure with C0 controls; a page's own controls are dropped (or replaced) before the tree.
    markdown = direct("<p>a\x01b\x02c\x0e[d\x10e</p><p title='\x03'>x\x05y</p>")
    assert "\\[d" in markdown and "<" not in markdown.replace("\\<", "")
    assert not any("\x00" < ch < " " and ch != "\n" for ch in markdown)


def test_deeply_nested_lists_and_quotes_get_their_prefixes_once():
    # Finished lists and quotes are referenced, not copied into each enclosing one; prefixes are applied at the end
    # (time figures for 150 levels around 2 MB in docs/performance.md, measured outside the tests).
    page = "<ul><li>" * 60 + "deep <b><b><i>text</i></b></b>" + "</li></ul>" * 60
    markdown = direct(page + "<blockquote>" * 3 + "<ul><li>q</li></ul>" + "</blockquote>" * 3)
    assert markdown.startswith("- " * 60 + "deep **text**\n")  # an item that starts with a list: on its line
    assert "> > > - q" in markdown


def test_the_writers_escaping_and_one_line_text_match_the_safety_rules():
    # The writer escapes with str.replace, skips the whitespace regex when nothing can collapse and collapses
    # paragraphs with str.split(): each must agree with the regex it stands for on every kind of character.
    import random

    from gigflow.documents.markdown_writer import (_AROUND_HARD, _INLINE_WS, _WS, BACKSLASH, BREAK, HARD, NL,
                                                   _escape, _one_line, _paragraphs)
    from gigflow.documents.safe_text import escape_text

    def paragraphs_by_regex(text):  # the rule _paragraphs implements with str.split() where it can
        parts = (_AROUND_HARD.sub(HARD, part).strip(" " + HARD).replace(HARD, BACKSLASH + NL) if HARD in part
                 else part.strip(" ") for part in _WS.sub(" ", text).split(BREAK))
        return [part for part in parts if part]

    pieces = list("ab#;& \\<[]`*_\t\n\r\f\xa0\x01\x02\x03\x04\u200b\u2003\u3000\x85") + ["&amp;", "&#12;", "  "]
    rng = random.Random(29)
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 16)))
        assert _escape(text) == escape_text(text)
        assert _one_line(text) == _INLINE_WS.sub(" ", text).strip(" ")
        assert _paragraphs([text]) == paragraphs_by_regex(text)


def test_a_page_written_in_small_pieces_is_the_page_written_whole_and_leaves_the_tree():
    # Every kind of block at the top of the flow, inline runs between them, wrappers to split, whitespace that is not
    # HTML's (kept as text) next to block boundaries: the cut points a large page gets, many times over.
    section = ("<section>lead text <span>inline {i}</span>\u3000<h2>Part {i} &amp; more</h2><p>Pay &euro;{i}<br>"
               "<a href='https://jobs.example.org/t/{i}'>team</a> <a href='https://jobs.example.org/f/{i}' tabindex='-1'>chip</a></p>\n<ul><li>one<ul><li>{i}</li></ul>"
               "</li></ul><blockquote><p>quote {i}</p></blockquote>\u3000<span>after</span> quote<table><caption>cap</caption><tr><th>a|b</th>"
               "<td rowspan=2>{i}</td></tr></table><pre>code [{i}]</pre><hr>tail <b>bold</b> end</section>\n ")
    html = "<div><div>" + "".join(section.format(i=i) for i in range(30)) + "</div>after</div><p>Apply</p>"
    from lxml import html as lxml_html

    from gigflow.documents.markdown_writer import MarkdownWriter

    whole_tree = lxml_html.fragment_fromstring(html, create_parent="div")
    whole = MarkdownWriter(piece_fragments=10**9).write(whole_tree)
    assert "## Part 29 & more" in whole and "- one\n  - 29" in whole and "> quote 29" in whole
    assert "[team](https://jobs.example.org/t/29) chip" in whole and whole.endswith("after\n\nApply\n")
    for size in (1, 7, 60):
        links: dict[str, None] = {}
        tree = lxml_html.fragment_fromstring(html, create_parent="div")
        assert MarkdownWriter(links, piece_fragments=size).write(tree) == whole
        assert list(links) == [f"https://jobs.example.org/{kind}/{i}" for i in range(30) for kind in ("t", "f")]
        assert not "".join(tree.itertext()).strip()  # what was written has left the tree
