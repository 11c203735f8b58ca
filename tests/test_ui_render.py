"""The review app's pure parts: safe Markdown with evidence marks, the annotated sample page, the diff, the
bind rule. (The pages themselves are tested in a browser: test_ui_browser.py.)"""

from dataclasses import replace

import pytest
from lxml import html

from gigflow.noise.model import RemovalRule
from gigflow.ui.annotate import annotate
from gigflow.ui.data import like_pattern
from gigflow.ui.library import select_regions
from gigflow.ui.render import evidence_highlights, line_diff, render_markdown, runs_chart
from gigflow.ui.server import UiConfigError, build, is_loopback


def test_markdown_renders_no_html_no_script_links_and_fetches_no_images():
    out = render_markdown('# T <script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n'
                          '[a](javascript:alert(1)) [b](data:text/html,x) [c](https://ok.example/) [d](mailto:j@x.org)'
                          '\n\n![logo](https://tracker.example/p.gif)')
    assert "<script" not in out and "<img" not in out and "&lt;script&gt;" in out
    assert 'href="javascript' not in out and 'href="data:' not in out
    assert 'href="https://ok.example/"' in out and 'href="mailto:j@x.org"' in out
    assert "tracker.example" not in out and "[image: logo]" in out


def test_evidence_marks_are_escaped_and_literal():
    fields = {"salary": "€2,600 (gross) *per* month", "title": 'Dev <b>"x"</b>', "unit": "BE"}
    evidence = {"salary": {"method": "text", "snippet_or_path": "€2,600 (gross)", "confidence": 0.8},
                "title": {"method": "jsonld", "snippet_or_path": "script[0].title", "confidence": 0.9},
                "unit": {"method": "jsonld", "snippet_or_path": "x", "confidence": 0.9}}
    marks = evidence_highlights(fields, evidence)
    assert "BE" not in marks  # too short to mark anything meaningful
    out = render_markdown('Pay: €2,600 (gross) a month. Dev <b>"x"</b>.', marks)
    assert '<mark title="salary: text €2,600 (gross)" data-field="salary: text €2,600 (gross)">€2,600 (gross)</mark>' in out
    assert "<b>" not in out and '&lt;b&gt;&quot;x&quot;&lt;/b&gt;</mark>' in out


def test_annotate_outlines_each_region_once_and_strips_what_could_fetch_or_run():
    page = html.fromstring(
        '<html><body><header><a href="/x" onclick="x()">Home</a><img src="https://t.example/p.gif"></header>'
        '<main><p style="background:url(https://t.example/b)">Job</p><div>a</div><div>b</div></main>'
        '<footer>one</footer><footer>two</footer></body></html>')
    rules = [RemovalRule(selector="header", signature="s", decision="remove", reason="template", classifier="rules"),
             RemovalRule(selector="footer:nth-of-type(2)", signature="s", decision="keep", reason="<b>", classifier="x"),
             RemovalRule(selector="main > div", signature="s", decision="remove", reason="", classifier="rules"),
             RemovalRule(selector="nav", signature="s", decision="remove", reason="", classifier="rules")]
    out, matches = annotate(page, rules, select_regions)
    assert [m.found for m in matches] == [1, 1, 2, 0]  # ambiguous and missing regions are reported, not outlined
    doc = html.fromstring(out)
    outlined = doc.xpath("//*[@data-gigflow-rule]")
    assert [(el.tag, el.get("data-gigflow-rule"), el.get("data-gigflow-decision")) for el in outlined] == [
        ("header", "1", "remove"), ("footer", "2", "keep")]
    assert outlined[1].text_content().startswith("#2 keep · footer:nth-of-type(2) · x · <b>two")
    assert not doc.xpath("//@href | //@src | //@style | //@onclick")


def test_like_pattern_takes_wildcards_literally():
    assert like_pattern("50%_off\\") == "%50\\%\\_off\\\\%"
    assert like_pattern("   ") is None


def test_line_diff_marks_removed_lines():
    assert line_diff("a\nnav\nb", "a\nb") == [("same", "a"), ("removed", "nav"), ("same", "b")]


def test_binding_beyond_loopback_needs_a_token():
    from scrapy.settings import Settings

    import gigflow.settings

    settings = Settings()
    settings.setmodule(gigflow.settings)
    settings.set("UI_TOKEN", "")
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    with pytest.raises(UiConfigError, match="set a token first"):
        build(settings, "0.0.0.0")
    settings.set("UI_TOKEN", "t")
    app, token = build(settings, "0.0.0.0")
    assert token == "t" and app is not None


def test_the_runs_chart_marks_drift_with_escaped_reasons_and_draws_confidence():
    from datetime import datetime, timezone

    from gigflow.store.review import RunRow

    at = datetime(2024, 5, 1, tzinfo=timezone.utc)
    run = RunRow(id=1, spider="href", started_at=at, finished_at=at, outcome="finished", owner_host=None,
                 owner_pid=None, heartbeat_at=None, jobs_new=0, jobs_updated=0, jobs_unchanged=4, jobs_gone=0,
                 versions_new=0, warnings=0, mean_confidence=1.0, complete=True, drift=[])
    runs = [replace(run, id=2, mean_confidence=0.5, outcome="incomplete:drift",
                    drift=[{"detector": "volume_change", "reason": "<script>alert(1)</script> drop"}]), run]
    svg = html.fromstring(str(runs_chart(runs, width=300, height=130)))
    [mark] = svg.xpath("//text[@class='drift-mark']")
    assert mark.xpath("string(title)") == "run 2: volume_change: <script>alert(1)</script> drop"
    assert not svg.xpath("//script")
    [line] = svg.xpath("//polyline[@class='confidence']")
    (x1, y1), (x2, y2) = (map(float, p.split(",")) for p in line.get("points").split())
    assert x1 < x2 and y1 < y2  # oldest run left; its confidence (1.0) drawn higher than the newer 0.5


def test_field_values_read_as_text_not_json():
    from gigflow.ui.render import display_value

    salary = {"min": 2600.0, "max": 3200.0, "currency": "EUR", "period": "MONTH",
              "raw": '{"@type": "MonetaryAmount", "currency": "EUR"}'}
    assert display_value("salary", salary) == "2,600–3,200 EUR per month"
    assert display_value("locations", ["Kırıkkale, TR", "Berlin"]) == "Kırıkkale, TR; Berlin"  # no \u0131
    assert display_value("provenance", {}) is None and display_value("benefits", []) is None
    assert display_value("provenance", {"a": None}) is None
    assert display_value("salary", {"value": 50000, "currency": "USD"}) == "50,000 USD"
    assert display_value("salary", {"min": 2600.0, "max": 3200.0, "unit": "MONTH", "currency": "EUR"}) == \
        "2,600–3,200 EUR per month"


def test_noise_rules_group_by_region_with_removals_first():
    from gigflow.ui.render import group_rules

    rules = [RemovalRule(selector="body > main > aside", signature="s", decision="keep", reason="", classifier="r"),
             RemovalRule(selector="div:nth-of-type(2) > ul > li:nth-of-type(3)", signature="s", decision="keep",
                         reason="", classifier="r"),
             RemovalRule(selector="div:nth-of-type(2) > ul > li:nth-of-type(1)", signature="s", decision="remove",
                         reason="", classifier="r"),
             RemovalRule(selector="body > footer", signature="s", decision="remove", reason="", classifier="r")]
    groups = group_rules(rules)
    assert [g["region"] for g in groups] == ["div:nth-of-type(2)", "footer", "main"]
    assert [i for i, _ in groups[0]["rules"]] == [3, 2] and (groups[0]["removed"], groups[0]["kept"]) == (1, 1)


def test_an_empty_database_says_how_to_begin():
    from gigflow.ui.app import templates

    rows = templates.get_template("sources_rows.html")
    empty = rows.render(rows=[], q="", status="", after=None, next_after=None)
    assert "No sources yet" in empty and "scrapy sources try" in empty and "make demo" in empty
    filtered = rows.render(rows=[], q="acme", status="", after=None, next_after=None)
    assert "no sources match these filters" in filtered and "No sources yet" not in filtered
