"""JSON-LD JobPosting: the corpus pages agree with their own JSON-LD; awkward and hostile scripts."""

import csv
import html
import json
import re

import pytest

from gigflow.adapters import extract
from helpers import SHARED

CORPUS = SHARED / "corpus"


def _jsonld_pages():
    if not (CORPUS / "MANIFEST.tsv").is_file():
        return []
    with open(CORPUS / "MANIFEST.tsv", encoding="utf-8") as handle:
        return [row["local_path"] for row in csv.DictReader(handle, delimiter="\t")
                if row["local_path"].startswith("html/") and row["has_jsonld_jobposting"] == "y"]


def _first_posting(page: bytes) -> dict:
    """The page's JobPosting, read with nothing but json and a regex (independent of the adapter)."""
    for raw in re.findall(rb'<script[^>]*application/ld\+json[^>]*>(.*?)</script>', page, re.S | re.I):
        data = json.loads(raw.decode("utf-8"), strict=False)
        for node in (data if isinstance(data, list) else data.get("@graph", [data])):
            if "JobPosting" in json.dumps(node.get("@type")):
                return node
    raise AssertionError("no JobPosting")


def _name(value):
    return value.get("name") if isinstance(value, dict) else value


def _text(value):
    return " ".join(html.unescape(str(value)).split())


@pytest.mark.skipif(not _jsonld_pages(), reason="needs ../shared/corpus")
@pytest.mark.parametrize("page", _jsonld_pages())
def test_corpus_page_fields_equal_the_pages_jsonld(page):
    body = (CORPUS / page).read_bytes()
    node = _first_posting(body)
    result = extract(body, url=f"https://example.test/{page}", content_type="text/html")
    job = result.jobs[0]
    complete = all(getattr(job, field) for field in ("employer", "location", "description"))
    # A visible value that disagrees with the JSON-LD (a later "Published" date) is recorded and costs confidence.
    disagreements = len(job.raw.get("disagreements", {}))
    assert result.parser_key == "jsonld" and result.confidence >= 0.8
    assert (result.confidence == round(0.95 - 0.05 * disagreements, 3)) == complete
    assert job.title == _text(node["title"])
    assert job.employer == _text(_name(node["hiringOrganization"]))
    place = node["jobLocation"][0] if isinstance(node["jobLocation"], list) else node["jobLocation"]
    for key in ("addressLocality", "addressRegion", "addressCountry"):
        value = _name(place.get("address", {}).get(key))
        if value:
            assert _text(value) in job.location
    salary = node.get("baseSalary")
    if salary and "salary" in job.raw.get("disagreements", {}):
        # A JSON-LD salary without an amount yields to the amount the page shows ("2651.83 euros/month").
        assert job.salary.min is not None and job.salary.currency == salary["currency"]
    elif salary:
        assert job.salary.currency == salary["currency"]
        value = salary["value"]
        low = value.get("minValue", value.get("value"))
        if isinstance(low, (int, float)) or (isinstance(low, str) and low.replace(".", "").isdigit()):
            assert job.salary.min == float(low)
        assert job.salary.unit == value.get("unitText")
    else:
        assert job.salary is None
    assert job.valid_through == node.get("validThrough")
    assert all(job.evidence[f].method == "jsonld" for f in ("title", "employer", "location"))


def test_graph_arrays_type_lists_cdata_comments_and_several_postings():
    page = b"""<html><head>
    <script type="application/ld+json">/*<![CDATA[*/ [{"@type": "Organization", "name": "X"},
      {"@type": ["Thing", "JobPosting"], "title": "Welder &amp; fitter", "hiringOrganization": {"name": "Acme"},
       "url": "https://acme.example/jobs/1", "description": "&lt;p&gt;Weld &lt;b&gt;steel&lt;/b&gt;&lt;/p&gt;"}] /*]]>*/</script>
    <script type="application/ld+json"><!-- {"@context": "https://schema.org", "@graph": [
      {"@type": "JobPosting", "title": "Planner", "url": "https://acme.example/jobs/2",
       "baseSalary": {"currency": "EUR", "value": {"minValue": "3000", "maxValue": 3600, "unitText": "MONTH"}}},
      {"@type": "http://schema.org/JobPosting", "title": "Driver", "url": "https://acme.example/jobs/3"}]} -->};</script>
    </head><body></body></html>"""
    result = extract(page, url="https://acme.example/jobs")
    assert [job.title for job in result.jobs] == ["Welder & fitter", "Planner", "Driver"]
    assert result.jobs[0].description == "Weld steel"
    assert result.kind == "listing" and result.confidence == 0.85  # employer, location, description missing
    assert (result.jobs[1].salary.min, result.jobs[1].salary.max) == (3000.0, 3600.0)


def test_hostile_jsonld_is_contained():
    deep = b"[" * 50_000 + b"]" * 50_000
    huge = "x" * 10_000_000
    page = (b'<script type="application/ld+json">' + deep + b"</script>"
            b'<script type="application/ld+json">' + json.dumps(
                {"@type": "JobPosting", "title": "<script>alert(1)</script>Nurse", "url": "https://h.example/1",
                 "description": huge}).replace("</", "<\\/").encode() + b"</script>")
    result = extract(page, url="https://h.example/1")
    [job] = result.jobs
    assert job.title == "Nurse"
    assert len(job.description) <= 20_000
    assert any("script 0" in warning for warning in result.warnings)


def test_remote_job_places_its_applicants_and_a_zero_salary_is_none():
    """A remote posting names where its applicants may live; a template's "value": "0" states no pay."""
    posting = {"@type": "JobPosting", "title": "DevOps Engineer", "url": "https://agency.example/careers/devops",
               "hiringOrganization": {"name": "Agency"}, "jobLocationType": "TELECOMMUTE",
               "applicantLocationRequirements": {"@type": "Country", "name": "Pakistan"},
               "baseSalary": {"@type": "MonetaryAmount", "currency": "PKR",
                              "value": {"@type": "QuantitativeValue", "value": "0", "unitText": "YEAR"}}}
    page = f'<script type="application/ld+json">{json.dumps(posting)}</script>'.encode()
    [job] = extract(page, url="https://agency.example/careers/devops", content_type="text/html").jobs
    assert job.remote == "remote" and job.evidence["remote"].snippet_or_path.endswith("jobLocationType")
    assert job.location == "Pakistan" and job.evidence["location"].snippet_or_path.endswith(
        "applicantLocationRequirements")
    assert job.salary is None or not (job.salary.min == job.salary.max == 0)
