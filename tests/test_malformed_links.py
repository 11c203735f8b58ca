"""A malformed URL (one the URL parser refuses, ``http://[x``) in a page costs that link, never the job nor the page's
Markdown: pure tests over the adapters and the noise signatures."""

from __future__ import annotations

from gigflow.adapters import extract
from gigflow.noise.signature import SelfReferences, link_target

BROKEN = "http://[x/apply"
PAGE = f"""<html><head><title>Data Engineer</title><base href="http://[x"></head><body>
<h1>Data Engineer</h1><p>Location: Berlin</p>
<p>We build pipelines for weather data and need an engineer who writes tests, reviews code and ships every week.</p>
<a href="{BROKEN}">Apply now</a></body></html>"""


def test_a_malformed_base_or_apply_link_costs_the_link_not_the_job():
    result = extract(PAGE.encode(), url="https://careers.example/jobs/data-engineer", content_type="text/html")
    assert result.jobs and result.jobs[0].title == "Data Engineer", result.warnings
    assert not any("ValueError" in warning for warning in result.warnings), result.warnings


def test_noise_signatures_compare_a_malformed_link_as_written():
    assert link_target(BROKEN) == BROKEN
    SelfReferences(page_url="http://[x/jobs/1", titles=("Data Engineer",))  # no exception: nothing to normalise
