"""Malformed HTML ends with a prepared result or a clear error in the report, never an exception."""

from __future__ import annotations

import pytest

from gigflow.documents import DocumentPreparer

CLIENT = DocumentPreparer()
URL = "https://jobs.example.com/j/1"
FACT = "Salary EUR 4,000 a month"


def test_unclosed_tags():
    body = f"<html><body><div><p>Nurse<p><b>{FACT}<ul><li>nights<li>weekends<table><tr><td>cell".encode()
    document = CLIENT.prepare(body, URL)
    assert FACT in document.markdown and "weekends" in document.markdown and not document.report.errors


def test_ten_thousand_levels_of_nesting_keep_the_text_after_them():
    body = ("<html><body>" + "<div>" * 10_000 + f"<p>{FACT}</p>" + "</div>" * 10_000 + "<p>Apply by 1 May</p>"
            "</body></html>").encode()
    document = CLIENT.prepare(body, URL)
    assert FACT in document.markdown and "Apply by 1 May" in document.markdown
    assert any(step.rule == "depth-limit" for step in document.report.steps)


def test_a_fifty_megabyte_page_is_stored_as_text_with_a_clear_error():
    paragraph = "<div class='c'><p>Lorem ipsum dolor sit amet, <a href='/j/{0}'>job {0}</a> elit.</p></div>\n"
    body = ("<html><body><h1>Big</h1>" + "".join(paragraph.format(i) for i in range(540_000)) +
            f"<p>{FACT}</p></body></html>").encode()
    assert len(body) > 50_000_000
    document = CLIENT.prepare(body, URL)
    assert FACT in document.markdown and document.title == "Big"
    assert "over PREPARATION_MAX_BYTES" in document.report.errors[0]
    assert "https://jobs.example.com/j/539999" in document.links


def test_nul_bytes_are_dropped_and_reported():
    body = f"<html><body><h1>Nu\x00rse</h1><p>{FACT}\x00</p><a href='/apply\x00'>Apply</a></body></html>".encode()
    document = CLIENT.prepare(body, URL)
    assert "# Nurse" in document.markdown and FACT in document.markdown
    assert "[Apply](https://jobs.example.com/apply)" in document.markdown
    assert any(step.rule == "control-characters" for step in document.report.steps)


@pytest.mark.parametrize("content_type, body", [
    ("text/html; charset=utf-8", f"<p>{FACT} \xe9\xff\xfe caf\xc3</p>".encode("latin-1")),  # not UTF-8
    ("text/html; charset=no-such-charset", f"<p>{FACT} café</p>".encode()),
    (None, f"<meta charset='bogus-8'><p>{FACT}</p>".encode("utf-16-le")),  # UTF-16 without BOM, bogus meta
    ("text/html; charset=shift_jis", f"<p>{FACT}</p>".encode() + b"\x81\x00\xff"),
])
def test_invalid_encodings_still_prepare(content_type, body):
    document = CLIENT.prepare(body, URL, content_type)
    assert document.format in ("html", "text")
    assert not document.report.errors or all(isinstance(e, str) and e for e in document.report.errors)
    if content_type:  # the bytes decode with replacement characters, the ASCII fact survives
        assert FACT in document.markdown


@pytest.mark.parametrize("body, markdown", [(b"", ""), (b"   \n ", ""), (b"<", "\\<\n"), (b"<html", ""),
                                            (b"<!-- only a comment -->", ""), (b"\x00\x00\x00", "")])
def test_empty_and_degenerate_pages(body, markdown):
    document = CLIENT.prepare(body, URL, "text/html")
    assert document.format == "html" and document.markdown == markdown and document.report.errors == []


@pytest.mark.parametrize("content_type, body", [
    ("text/html; charset=utf-8", "<h1>Café €</h1><p>Ünïcode ✓</p>".encode()),  # parsed as it came
    ("text/html; charset=utf-8", b"\xef\xbb\xbf" + "<h1>Café €</h1><p>Ünïcode ✓</p>".encode()),  # a BOM
    ("text/html; charset=utf-8", "<h1>Café €</h1><p>Ünïcode ✓ \ufffd</p>".encode()),  # a real U+FFFD
    ("text/html; charset=iso-8859-1", "<h1>Café</h1><p>Ünïcode</p>".encode("latin-1")),
    ("text/html; charset=utf-8", "<h1>Café</h1><p>Ünïcode \xe9</p>".encode() + b"\xe9\xff"),  # broken UTF-8
])
def test_bytes_prepare_as_their_decoded_text_does(content_type, body):
    # Valid UTF-8 goes to the parser as it came; every other body is decoded and encoded again: either way the
    # result is the one the decoded text gives.
    from gigflow.documents.html import decode_html

    document = CLIENT.prepare(body, URL, content_type)
    from_text = CLIENT.prepare(decode_html(body, content_type)[0], URL, content_type)
    assert document.markdown == from_text.markdown and document.title == from_text.title
    assert document.title.startswith("Caf") and "Ünïcode" in document.markdown


@pytest.mark.parametrize("content_type", [None, "text/html", "text/html; charset=utf-8", "text/html; charset=UTF8",
                                          "text/html; charset=iso-8859-1", "text/html; charset=utf-16"])
@pytest.mark.parametrize("body", [
    b"<p>plain ASCII</p>",
    "<p>Café</p>".encode(),
    "<meta charset='windows-1252'><p>Café</p>".encode(),  # valid UTF-8 bytes, declared otherwise
    "<meta charset='utf-8'><p>Café</p>".encode("latin-1"),  # declared UTF-8, is not
    b"\xef\xbb\xbf<p>BOM</p>",
    b"\xff\xfe<\x00p\x00>\x00",  # a UTF-16 BOM
    b"<p>" + b"x" * 65535 + "é€😀".encode() * 3 + b"</p>",  # multi-byte characters across the check's chunks
    b"<p>" + b"x" * 70000 + b"\xc3</p>",  # broken UTF-8 past the first chunk
])
def test_a_body_is_parsed_as_it_came_only_when_it_is_the_decoded_texts_utf8(content_type, body):
    from w3lib.encoding import html_to_unicode

    from gigflow.documents.html import decode_for_parsing, decode_html

    text, dropped, as_is = decode_for_parsing(body, content_type)
    expected = html_to_unicode(content_type, body)[1]
    assert decode_html(body, content_type) == (expected, 0)
    if content_type in (None, "text/html; charset=utf-8") and body in (b"<p>plain ASCII</p>", "<p>Café</p>".encode()):
        assert as_is is body  # the common case does take the short way
    if as_is is None:
        assert text == expected
    else:
        assert text is None and as_is is body and expected.encode("utf-8") == body
