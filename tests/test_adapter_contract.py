"""The SourceAdapter contract and the one entry point: format dispatch, parser keys, failure containment."""

import re

from gigflow.adapters import SourceAdapter, extract
from gigflow.adapters.ats import ADAPTERS
from gigflow.adapters.chain import FALLBACKS, JSONLD, SPECIALISED, content_format
from gigflow.adapters.email_alert import EmailAdapter
from gigflow.adapters.routes import route_adapter
from helpers import FIXTURES

ADAPTER_FIXTURES = FIXTURES / "adapters"


def every_adapter():
    return [JSONLD, *SPECIALISED.values(), *FALLBACKS, EmailAdapter(), route_adapter("corda-campus")]


def test_every_adapter_honours_the_protocol_with_a_fixed_key_and_semver():
    keys = set()
    for adapter in every_adapter():
        assert isinstance(adapter, SourceAdapter)
        assert re.fullmatch(r"\d+\.\d+\.\d+", adapter.parser_version)
        keys.add(adapter.parser_key)
    assert {"jsonld", "generic-html", "greenhouse", "lever", "recruitee", "smartrecruiters", "workable", "ashby",
            "workday", "personio", "teamtailor", "bamboohr", "breezy", "pinpoint", "manatal", "jibe", "radancy", "feed",
            "email", "route:corda-campus"} == keys


def test_supports_never_claims_foreign_content():
    greenhouse_json = (ADAPTER_FIXTURES / "ats" / "greenhouse-smarterdx" / "input.json").read_bytes()
    for key, adapter in ADAPTERS.items():
        claims = adapter.supports("https://boards-api.greenhouse.io/v1/boards/x/jobs", greenhouse_json)
        assert claims == (key == "greenhouse"), key
    html = (ADAPTER_FIXTURES / "html" / "labelled-vacancy" / "input.html").read_bytes()
    assert not any(adapter.supports("https://werken.example/v/1", html) for adapter in ADAPTERS.values())
    assert not route_adapter("corda-campus").supports("https://werken.example/jobs/", html)


def test_content_format_from_media_type_suffix_and_bytes():
    assert content_format(b"{}", url="https://x/", content_type="application/json; charset=utf-8") == "json"
    assert content_format(b"<rss/>", url="https://x/feed") == "xml"
    assert content_format(b"<html></html>", url="https://x/a.eml") == "email"
    assert content_format(b"From: a\nMIME-Version: 1.0\n\nhi", url="imap://box/1") == "email"
    assert content_format(b"<html><h1>x</h1></html>", url="https://x/", content_type="text/html") == "html"
    assert content_format(b"<!doctype html><p>x", url="https://x/") == "html"


def test_entry_point_picks_the_chain_by_format():
    cases = [(ADAPTER_FIXTURES / "ats" / "workable-kroo" / "input.json", "https://apply.workable.com/api/v1/widget/accounts/kroo",
              None, "workable"),
             (ADAPTER_FIXTURES / "feeds" / "pxo-workable-rss" / "input.xml", "https://apply.workable.com/pxo/rss", None, "feed"),
             (ADAPTER_FIXTURES / "email" / "employer-alert" / "input.eml", "inbox/1.eml", None, "email"),
             (ADAPTER_FIXTURES / "html" / "labelled-vacancy" / "input.html", "https://werken.example/v/1", "text/html",
              "generic-html"),
             (FIXTURES / "sites" / "demo" / "jobs" / "data-analyst.html", "http://127.0.0.1/demo/jobs/x.html",
              "text/html", "jsonld")]
    for path, url, content_type, key in cases:
        if not path.is_file():
            continue
        result = extract(path.read_bytes(), url=url, content_type=content_type)
        assert result.parser_key == key and result.jobs, (path.name, result.warnings)


def test_html_chain_order_jsonld_then_specialised_then_generic():
    jsonld_and_board = (b'<script type="application/ld+json">{"@type": "JobPosting", "title": "From JSON-LD",'
                        b'"url": "https://boards.greenhouse.io/acme/jobs/1"}</script>'
                        b'<a href="/acme/jobs/2">From the board</a>')
    url = "https://boards.greenhouse.io/acme"
    assert extract(jsonld_and_board, url=url, parser_key="greenhouse").jobs[0].title == "From JSON-LD"
    board_only = b'<h1>Acme board</h1><a href="/acme/jobs/2">From the board</a>'
    assert extract(board_only, url=url, parser_key="greenhouse").parser_key == "greenhouse"
    unknown = extract(b"<h1>Cook</h1>", url="https://x.example/j", parser_key="taleo")
    assert unknown.parser_key == "generic-html" and "unknown parser key 'taleo'" in unknown.warnings[0]


def test_json_without_a_known_provider_and_failing_adapters_become_warnings():
    result = extract(b'{"jobs": [{"name": "x"}]}', url="https://ats.example/api", content_type="application/json")
    assert result.jobs == [] and "no ATS adapter" in result.warnings[0]

    class Exploding:
        parser_key, parser_version = "exploding", "0.0.1"

        def supports(self, url, content):
            return True

        def extract(self, content, *, url):
            raise ValueError("boom")

    from gigflow.adapters.chain import _safely
    failed = _safely(Exploding(), b"", "https://x.example/")
    assert failed.jobs == [] and failed.warnings == ["exploding: failed on https://x.example/: ValueError: boom"]


def test_every_field_an_adapter_sets_carries_evidence():
    important = ("title", "employer", "location", "salary", "employment_type", "date_posted", "valid_through",
                 "description", "apply_url", "url", "external_id")
    routes = {"routes"}  # a case's group is its folder's parent; the file keeps its case's name in the URL
    cases = [(path, "https://cordacampus.com/jobs/" if path.parent.parent.name in routes
              else f"https://x.example/{path.parent.name}{path.suffix}",
              "route:corda-campus" if path.parent.parent.name in routes else None)
             for path in sorted(ADAPTER_FIXTURES.glob("*/*/input.*"))]
    seen = set()
    for path, url, key in cases:
        result = extract(path.read_bytes(), url=url, parser_key=key)
        for job in result.jobs:
            seen.add(result.parser_key)
            missing = [field for field in important if getattr(job, field) and field not in job.evidence]
            assert not missing, (path.name, missing)
            assert all(0 < evidence.confidence <= 1 for evidence in job.evidence.values())
    assert {"generic-html", "greenhouse", "lever", "recruitee", "smartrecruiters", "workable", "feed", "email",
            "route:corda-campus"} <= seen
