from gigflow.adapters import extract_html
from helpers import FIXTURES

DEMO = FIXTURES / "sites" / "demo" / "jobs"


def test_demo_pages_yield_their_jsonld_job():
    pages = sorted(DEMO.glob("*.html"))
    assert len(pages) >= 5
    for page in pages:
        result = extract_html(page.read_bytes(), url=f"http://127.0.0.1:8765/demo/jobs/{page.name}")
        assert result.parser_key == "jsonld" and result.confidence == 0.95
        [job] = result.jobs
        assert job.employer == "Northwind Robotics"
        assert job.salary.currency == "EUR" and job.salary.unit == "MONTH" and job.salary.min < job.salary.max
        assert job.location.endswith(", BE") and job.valid_through.startswith("2026-12-")
        assert job.evidence["title"].method == "jsonld"
        assert job.url.endswith(page.name) and job.external_id.startswith("NW-")


def test_broken_script_does_not_hide_the_next_one():
    page = b"""<html><head><script type="application/ld+json">{ broken json</script>
    <script type="application/ld+json">// comment
    {"@graph": [{"@type": ["JobPosting"], "title": "Nurse &amp; carer",
      "hiringOrganization": "Zorg BV", "url": "https://zorg.example/j/1"}]};</script></head></html>"""
    result = extract_html(page, url="https://zorg.example/j/1")
    [job] = result.jobs
    assert job.title == "Nurse & carer" and job.employer == "Zorg BV"
    assert any("script 0" in w for w in result.warnings)


def test_no_job_without_title():
    page = b'<script type="application/ld+json">{"@type": "JobPosting", "url": "https://x.example/1"}</script>'
    result = extract_html(page, url="https://x.example/1")
    assert result.jobs == []
