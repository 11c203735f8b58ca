"""Hostile input costs a message, never a traceback or a hang: patterns run in linear time, source files in any
encoding or with control characters are refused naming the field, an unknown source is one line, extracted job
URLs follow the fetch guard's policy, and fuzzed source files and `scrapy extract` inputs never crash."""

import json
import time

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gigflow.adapters import extract
from gigflow.safety.guard import FetchGuard
from gigflow.sources.loader import SourceFileError, load_source_file, parse_sources
from gigflow.spiders.base import SourceSpider
from helpers import scrapy_command


def href_source(**strategy) -> dict:
    return {"id": "s1", "company": "Acme", "canonical_url": "https://acme.example/",
            "strategies": [{"type": "href", "listing_urls": ["https://acme.example/jobs"], **strategy}]}


@pytest.mark.timeout(20)
def test_a_catastrophic_pattern_against_a_long_link_returns_at_once():
    [config] = parse_sources([href_source(job_url_patterns=["(a+)+$"], exclude_patterns=["(x|x?)+y"])])
    strategy = config.strategy("href")
    link = "https://acme.example/" + "a" * 50_000 + "!"
    started = time.monotonic()
    assert not SourceSpider.matches(link, strategy.job_url_patterns, strategy.exclude_patterns)
    assert SourceSpider.matches("https://acme.example/aaa", strategy.job_url_patterns, [])
    assert not SourceSpider.matches("https://acme.example/aaa", [], strategy.exclude_patterns[:0] + ["a$"])
    assert time.monotonic() - started < 2


@pytest.mark.parametrize("pattern, reason", [(r"(a)\1", "invalid escape sequence"), ("(?=jobs)", "invalid perl operator"),
                                             ("(?<!x)y", "invalid perl operator"), ("[", "missing ]")])
def test_patterns_the_linear_engine_cannot_run_are_refused_naming_source_and_field(pattern, reason):
    with pytest.raises(SourceFileError) as info:
        parse_sources([href_source(exclude_patterns=["ok", pattern])], "acme.yaml")
    message = str(info.value)
    assert "source 's1': strategies[0].exclude_patterns: pattern 1" in message and reason in message


def test_a_latin1_source_file_is_refused_with_the_encoding_named(tmp_path):
    path = tmp_path / "sources.yaml"
    path.write_bytes(yaml.safe_dump({"sources": [href_source()]}).replace("Acme", "Café Müller").encode("latin-1"))
    with pytest.raises(SourceFileError) as info:
        load_source_file(path)
    assert "not UTF-8 (byte 0xe9 on line" in str(info.value) and "save the file as UTF-8" in str(info.value)


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_unicode_source_files_with_a_byte_order_mark_are_read(tmp_path, encoding):
    path = tmp_path / "sources.yaml"
    path.write_bytes(yaml.safe_dump({"sources": [href_source()]}).replace("Acme", "Café Müller").encode(encoding))
    assert load_source_file(path)[0].company == "Café Müller"


@pytest.mark.parametrize("field, value, named", [
    ("company", "Acme\x00Corp", "company: control character U+0000"),
    ("canonical_url", "https://acme.example/\x00", "canonical_url: control character U+0000"),
    ("id", "s1\x1b", "id: control character U+001B"),
])
def test_control_characters_are_refused_naming_the_field(tmp_path, field, value, named):
    source = href_source()
    source[field] = value
    path = tmp_path / "sources.json"
    path.write_text(json.dumps({"sources": [source]}))
    with pytest.raises(SourceFileError) as info:
        load_source_file(path)
    assert named in str(info.value)


def test_an_unknown_source_is_one_line_suggesting_the_list_command(pool):
    result = scrapy_command("crawl", "href", "-a", "source=nope")
    assert result.returncode != 0
    assert "unknown source 'nope' (see `scrapy sources list`)" in result.stderr
    assert "Traceback" not in result.stderr
    missing = scrapy_command("crawl", "href")
    assert "usage: scrapy crawl href -a source=<id>" in missing.stderr and "Traceback" not in missing.stderr


def test_extracted_job_and_apply_urls_the_guard_refuses_are_dropped_with_a_warning():
    links = ["http://admin:hunter2@jobs.example.org/1", "http://169.254.169.254/latest/meta-data/",
             "http://10.0.0.5/jobs/3", "http://localhost:8080/jobs/4", "https://jobs.example.org/jobs/5"]
    cards = "".join(f'<tr><td><a href="{url}">Engineer {i}</a></td></tr>' for i, url in enumerate(links))
    message = (f"From: alerts@jobs.example.org\r\nTo: me@example.org\r\nSubject: 5 new jobs\r\n"
               f"Message-ID: <a1@jobs.example.org>\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
               f"<html><body><table>{cards}</table></body></html>").encode()
    unguarded = extract(message, url="mid:a1@jobs.example.org", content_type="message/rfc822")
    assert len([j for j in unguarded.jobs if j.url]) == 5  # what the adapter reads, before the policy
    result = extract(message, url="mid:a1@jobs.example.org", content_type="message/rfc822", url_guard=FetchGuard())
    urls = {job.url for job in result.jobs} | {job.apply_url for job in result.jobs}
    assert urls <= {"https://jobs.example.org/jobs/5", None} and "https://jobs.example.org/jobs/5" in urls
    text = "\n".join(result.warnings)
    assert "credentials in the URL" in text and "link-local address 169.254.169.254" in text
    assert "private address 10.0.0.5" in text and "loopback name" in text
    assert "hunter2" not in text and "hunter2" not in result.model_dump_json()


# -- fuzzing: no traceback, ever ---------------------------------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                    st.text(max_size=20), st.sampled_from(["href", "sitemap", "feed", "ats", "click", "mailbox",
                                                           "https://acme.example/", "(a+)+$", "http://u:p@x/"]))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(st.sampled_from(
                                                              ["id", "company", "canonical_url", "strategies",
                                                               "type", "listing_urls", "job_url_patterns",
                                                               "status", "imap", "path", "sources", "x"]) | st.text(
                                                              max_size=5), inner, max_size=5)), max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=json_values)
def test_fuzzed_source_data_is_imported_or_refused_with_a_message(data):
    try:
        parse_sources(data, "fuzz.yaml")
    except SourceFileError as exc:
        assert str(exc).startswith("fuzz.yaml")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(raw=st.one_of(st.binary(max_size=300), json_values.map(lambda v: json.dumps(v).encode()),
                     json_values.map(lambda v: yaml.safe_dump(v).encode("utf-16"))),
       suffix=st.sampled_from([".yaml", ".json"]))
def test_fuzzed_source_files_are_imported_or_refused_with_a_message(tmp_path, raw, suffix):
    path = tmp_path / f"fuzz{suffix}"
    path.write_bytes(raw)
    try:
        load_source_file(path)
    except SourceFileError as exc:
        assert str(exc).startswith(str(path))


extract_inputs = st.one_of(
    st.binary(max_size=400),
    st.text(max_size=300).map(lambda t: f"<html><body><h1>{t}</h1><a href='{t}'>{t}</a></body></html>".encode()),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.text(max_size=200).map(lambda t: f"<?xml version='1.0'?><rss><channel><item><title>{t}</title>"
                                        f"<link>{t}</link></item></channel></rss>".encode("utf-8", "replace")),
    st.text(max_size=200).map(lambda t: f"From: a@b.c\r\nSubject: {t}\r\nMIME-Version: 1.0\r\n\r\n{t}"
                                        .encode("utf-8", "replace")),
)


@settings(max_examples=150, deadline=None)
@given(content=extract_inputs,
       content_type=st.sampled_from([None, "text/html", "application/json", "application/rss+xml",
                                     "message/rfc822", "text/plain; charset=bogus"]),
       parser_key=st.sampled_from([None, "greenhouse", "lever", "workable", "feed", "email", "route:nope", "x"]),
       url=st.sampled_from(["https://boards-api.greenhouse.io/v1/boards/a/jobs", "mid:1@x", "https://x.example/a",
                            "not a url", "http://[::1"]))
def test_fuzzed_extract_inputs_give_a_result_never_a_traceback(content, content_type, parser_key, url):
    result = extract(content, url=url, content_type=content_type, parser_key=parser_key, url_guard=FetchGuard())
    result.model_dump_json()


def test_the_extract_command_on_hostile_files_prints_json_or_a_message(tmp_path):
    bodies = {"nul.html": b"<h1>\x00\x00</h1>\xff\xfe", "deep.json": b"[" * 100_000, "bad.eml": b"From: \xff\r\n\r\n\x00",
              "big.xml": b"<?xml version='1.0'?><rss>" + b"<item>" * 5000}
    for name, body in bodies.items():
        (tmp_path / name).write_bytes(body)
        done = scrapy_command("extract", str(tmp_path / name), "--url", "https://x.example/")
        assert "Traceback" not in done.stderr, (name, done.stderr[-1500:])
        assert done.returncode == 0 and json.loads(done.stdout)["parser_key"], name


def test_nul_characters_in_a_page_are_stored_without_them(pool):
    from scripted_server import Reply, ScriptedServer, site, source
    from gigflow.sources.repository import import_sources
    from helpers import crawl

    posting = ('{"@context": "https://schema.org", "@type": "JobPosting", "title": "Nu\\u0000rse",'
               ' "hiringOrganization": {"@type": "Organization", "name": "Care\\u0000 Co"}}')
    jobs = site("/n", jobs=1)

    def route(path, headers):
        if path == "/n/jobs/0.html":
            return Reply(body=(f"<html><head><script type='application/ld+json'>{posting}</script></head>"
                               "<body><h1>Nu\x00rse</h1><p>Night shifts\x00</p></body></html>").encode())
        return jobs(path, headers)

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources({"sources": [source("nul", server.url, "/n")]}))
        crawl("href", "nul")
    with pool.connection() as conn:
        job = conn.execute("SELECT title, fields->>'employer' AS employer FROM jobs").fetchone()
        markdown = conn.execute("SELECT m.markdown FROM source_versions v LEFT JOIN markdowns m"
                                " ON m.sha256 = v.markdown_sha256 WHERE v.url LIKE '%/n/jobs/0.html'").fetchone()
    assert (job["title"], job["employer"]) == ("Nurse", "Care Co")
    assert "Night shifts" in markdown["markdown"]


def test_importing_a_latin1_file_from_the_command_line_is_a_message(pool, tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes(yaml.safe_dump({"sources": [href_source()]}).replace("Acme", "Café").encode("latin-1"))
    result = scrapy_command("sources", "import", str(path))
    assert "not UTF-8" in result.stderr + result.stdout and "Traceback" not in result.stderr
