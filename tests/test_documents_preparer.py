"""DocumentPreparer: one door, every format, the same result contract; the raw body never changes."""

from __future__ import annotations

import hashlib
import json

import pytest

from gigflow.documents import DocumentPreparer, PreparedDocument, sniff_format
from helpers import FIXTURES, SHARED

CLIENT = DocumentPreparer()


def tiny_pdf(lines: list[str]) -> bytes:
    """A one-page PDF with a real text layer (Helvetica), built by hand so the test needs no binary fixture."""
    content = "BT /F1 12 Tf 72 720 Td " + " ".join(f"({line}) Tj 0 -16 Td" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode("latin-1")
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


@pytest.mark.parametrize("body, content_type, url, expected", [
    (b"<!doctype html><html><body><p>x</p></body></html>", None, "https://a.example/j", "html"),
    (b"<div><p>Fragment without html tag</p></div>", "text/plain", "https://a.example/j", "html"),  # mislabelled
    (b"\xef\xbb\xbf<html><body>BOM first</body></html>", None, "https://a.example/j", "html"),
    (b"Nurse wanted.\nShifts: nights.", "text/plain", "https://a.example/j.txt", "text"),
    (b"# Nurse\n\n- nights\n- [apply](/apply)", None, "https://a.example/job.md", "markdown"),
    (b"# Nurse\n\n- nights", "text/markdown; charset=utf-8", "https://a.example/job", "markdown"),
    (b"%PDF-1.4 ...", "text/html", "https://a.example/j", "pdf"),  # bytes beat a lying header
    (b'{"jobs": []}', "text/plain", "https://a.example/api", "json"),
    (b'[{"id": 1}]', None, "https://a.example/api", "json"),
    (b'{"id": 1}', "application/vnd.api+json", "https://a.example/api", "json"),
    (b"<?xml version='1.0'?><urlset><url><loc>https://a.example/j/1</loc></url></urlset>", None,
     "https://a.example/sitemap", "xml"),
    (b"<rss version='2.0'><channel/></rss>", "text/html", "https://a.example/feed", "xml"),
    (b"<?xml version='1.0'?><jobs><job/></jobs>", "application/xml", "https://a.example/feed", "xml"),
    (b"plain words", None, "https://a.example/j", "text"),
])
def test_the_format_is_picked_from_content_type_and_sniffed_bytes(body, content_type, url, expected):
    assert sniff_format(body, url, content_type) == expected
    document = CLIENT.prepare(body, url, content_type)
    assert isinstance(document, PreparedDocument) and document.format == expected


def test_pdf_text_layer_becomes_markdown():
    pdf = tiny_pdf(["Warehouse Lead", "Salary EUR 3,100 per month", "Apply at https://a.example/apply/9"])
    document = CLIENT.prepare(pdf, "https://a.example/lead.pdf", "application/pdf")
    assert document.format == "pdf" and not document.report.errors
    assert "Salary EUR 3,100 per month" in document.markdown
    assert document.title == "Warehouse Lead"
    assert document.links == ["https://a.example/apply/9"]


def test_a_pdf_without_text_layer_or_broken_says_so():
    blank = tiny_pdf([]).replace(b"BT /F1 12 Tf 72 720 Td  ET", b"                          ")
    assert "no text layer" in CLIENT.prepare(blank, "https://a.example/scan.pdf").report.errors[0]
    assert "PDF could not be read" in CLIENT.prepare(b"%PDF-1.4 garbage", "https://a.example/x.pdf").report.errors[0]


def test_markdown_links_become_absolute():
    document = CLIENT.prepare(b"# Nurse\n\nSee [the apply form](/apply?id=3) or [benefits](benefits.md).",
                              "https://a.example/jobs/nurse.md")
    assert document.title == "Nurse"
    assert "[the apply form](https://a.example/apply?id=3)" in document.markdown
    assert document.links == ["https://a.example/apply?id=3", "https://a.example/jobs/benefits.md"]


def test_plain_text_keeps_every_line_and_finds_urls():
    document = CLIENT.prepare("Nurse\n\n\n\nNights, €3,000.\nhttps://a.example/apply".encode(), "https://a.example/j.txt",
                              "text/plain; charset=utf-8")
    assert document.markdown == "Nurse\n\nNights, €3,000.\nhttps://a.example/apply\n"
    assert document.title == "Nurse" and document.links == ["https://a.example/apply"]


@pytest.mark.parametrize("path", sorted((SHARED / "corpus" / "ats").glob("*/*.json"))[:6] +
                         sorted((SHARED / "corpus" / "feeds").glob("*")), ids=lambda p: p.name)
def test_corpus_payloads_pass_through_unchanged(path):
    body = path.read_bytes()
    digest = hashlib.sha256(body).hexdigest()
    document = CLIENT.prepare(body, "https://boards.example/" + path.name)
    assert document.format == ("json" if path.suffix == ".json" else "xml")
    assert hashlib.sha256(body).hexdigest() == digest
    assert not document.report.errors
    if document.format == "json":
        fence_body = document.markdown.split("\n", 1)[1].rsplit("\n", 2)[0]
        assert json.loads(fence_body) == json.loads(body)


def test_html_fixture_through_the_client_matches_prepare_html():
    from gigflow.documents import prepare_html

    body = (FIXTURES / "documents" / "detail_with_cards.html").read_bytes()
    url = "https://logistics.example/jobs/warehouse-lead"
    assert CLIENT.prepare(body, url, "text/html").model_dump() == prepare_html(body, url).model_dump()


def test_a_mail_message_takes_the_one_preparation_path_with_the_noise_filter():
    """message/rfc822 is a format of the preparer: its HTML body is prepared as a page is, noise filter included
    (the mailbox spider prepared messages itself before, without the source's filter)."""
    from lxml import html as lxml_html

    from gigflow.noise import NoiseFilter, RemovalRule, region_signature

    page = ("<html><body><footer class='site'>Manage your alerts</footer><main><h1>Nurse</h1></main>"
            "<footer class='apply'>Apply by 1 May</footer></body></html>")
    raw = ("From: alerts@example.org\r\nSubject: New jobs\r\nMessage-ID: <1@example.org>\r\nMIME-Version: 1.0\r\n"
           f"Content-Type: text/html; charset=utf-8\r\n\r\n{page}").encode()
    region = lxml_html.fromstring(page).find(".//footer")
    rule = RemovalRule(selector="footer.site", signature=region_signature(region), decision="remove",
                       classifier="rules")
    noise_filter = NoiseFilter(config_hash="h", rules=[rule])
    assert sniff_format(raw, "mid:1@example.org", "message/rfc822") == "email"
    plain = DocumentPreparer().prepare(raw, "mid:1@example.org", content_type="message/rfc822")
    filtered = DocumentPreparer().prepare(raw, "mid:1@example.org", content_type="message/rfc822",
                                          noise_filter=noise_filter)
    assert plain.format == "html" and "Manage your alerts" in plain.markdown and "Nurse" in plain.markdown
    assert "Manage your alerts" not in filtered.markdown and "Apply by 1 May" in filtered.markdown
    assert filtered.report.noise_filter == noise_filter.fingerprint()


def test_a_malformed_url_never_breaks_sniffing_or_preparation():
    assert sniff_format(b"hello", "http://[oops/jobs.md") == "text"
    document = DocumentPreparer().prepare(b"<p>Welder</p>", "http://[oops/")  # a report, never a traceback
    assert document.format == "html" and "Invalid IPv6 URL" in document.report.errors[0]
