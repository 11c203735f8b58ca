"""`scrapy prepare`: the crawl's preparation path on a saved page, as a user runs it."""

from __future__ import annotations

import json

from lxml.cssselect import CSSSelector

from gigflow.documents.html import HtmlFormat
from gigflow.documents.types import PreparationReport
from gigflow.noise import NoiseFilter, RemovalRule, region_signature
from helpers import FIXTURES, scrapy_command

PAGE = FIXTURES / "sites" / "demo" / "jobs" / "data-analyst.html"
URL = "http://127.0.0.1:8765/demo/jobs/data-analyst.html"


def test_prints_markdown_and_the_report():
    result = scrapy_command("prepare", str(PAGE), "--url", URL, "--report")
    assert result.returncode == 0, result.stderr
    markdown, report = result.stdout.split("\n---\n")
    assert "# Data Analyst" in markdown
    assert "[apply for Data Analyst](http://127.0.0.1:8765/demo/apply?job=data-analyst)" in markdown
    assert "removed  asset" in report and "[script]" in report


def test_json_prints_the_whole_result_contract():
    result = scrapy_command("prepare", str(PAGE), "--url", URL, "--json", "-s", "MARKDOWN_CONVERTER=markdownify")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert set(document) == {"markdown", "title", "links", "format", "report"}
    assert document["format"] == "html" and document["title"] == "Data Analyst"
    assert all(link.startswith("http") for link in document["links"])


def test_a_filter_file_is_applied(tmp_path):
    root, _ = HtmlFormat().clean_tree(PAGE.read_bytes(), URL, report=PreparationReport())
    (footer,) = CSSSelector("footer.site-footer")(root)
    noise = NoiseFilter(config_hash="x", rules=[RemovalRule(selector="footer.site-footer", decision="remove",
                                                            signature=region_signature(footer), classifier="rules")])
    path = tmp_path / "filter.json"
    path.write_text(noise.model_dump_json())
    result = scrapy_command("prepare", str(PAGE), "--url", URL, "--filter", str(path), "--report")
    assert result.returncode == 0, result.stderr
    markdown, report = result.stdout.split("\n---\n")
    assert "© 2026 Northwind Robotics" not in markdown and "Apply before 23 December 2026" in markdown
    assert "removed  noise-filter" in report
    # What went, shortened, under the step that removed it.
    (line,) = [line for line in report.splitlines() if line.strip().startswith("text: ")]
    assert "© 2026 Northwind Robotics" in line and len(line) < 140


def test_bad_input_is_named():
    assert "--url URL is required" in scrapy_command("prepare", str(PAGE)).stderr
    assert "no such file" in scrapy_command("prepare", "missing.html", "--url", URL).stderr
    bad = scrapy_command("prepare", str(PAGE), "--url", URL, "--filter", str(PAGE))
    assert bad.returncode != 0 and "is not a valid noise filter" in bad.stderr


def test_a_source_brings_its_card_rules(pool, tmp_path):
    sources = tmp_path / "sources.yaml"
    sources.write_text("""sources:
  - id: demo-cards
    company: Northwind Robotics
    canonical_url: http://127.0.0.1:8765/demo/index.html
    strategies:
      - type: href
        listing_urls: [http://127.0.0.1:8765/demo/index.html]
        card_selector: ".other-jobs li"
        job_url_patterns: ['/demo/jobs/[a-z-]+\\.html$']
""")
    assert scrapy_command("sources", "import", str(sources)).returncode == 0
    result = scrapy_command("prepare", str(PAGE), "--url", URL, "--source", "demo-cards", "--report")
    assert result.returncode == 0, result.stderr
    assert "Robotics Field Technician" not in result.stdout
    assert result.stdout.count("removed  job-card") == 4
    missing = scrapy_command("prepare", str(PAGE), "--url", URL, "--source", "nope")
    assert missing.returncode != 0 and "nope" in missing.stderr
