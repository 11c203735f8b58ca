"""The five public ATS adapters: real payloads, paging, endpoint builders, changed and hostile payloads."""

import json

import pytest

from gigflow.adapters import extract
from gigflow.adapters.ats import greenhouse, lever, provider, recruitee, smartrecruiters, workable
from helpers import FIXTURES, SHARED

ATS = FIXTURES / "adapters" / "ats"
CORPUS_ATS = SHARED / "corpus" / "ats"
PROVIDERS = ("greenhouse", "lever", "recruitee", "smartrecruiters", "workable")


def _payload_jobs(provider_key: str, data) -> list[dict]:
    """The job objects of a payload as its provider lays them out (the independent count)."""
    if provider_key == "lever":
        return data if isinstance(data, list) else [data]
    key = {"greenhouse": "jobs", "recruitee": "offers", "smartrecruiters": "content", "workable": "jobs"}[provider_key]
    if isinstance(data, dict) and isinstance(data.get(key), list):
        return data[key]
    return [data] if isinstance(data, dict) and ("title" in data or "name" in data) and "id" in data else []


@pytest.mark.skipif(not CORPUS_ATS.is_dir(), reason="needs ../shared/corpus")
@pytest.mark.parametrize("provider_key", PROVIDERS)
def test_every_corpus_payload_yields_its_job_count_with_title_url_and_id(provider_key):
    payloads = sorted((CORPUS_ATS / provider_key).glob("*.json"))
    assert payloads
    for path in payloads:
        data = json.loads(path.read_bytes())
        expected = _payload_jobs(provider_key, data)
        if provider_key == "workable":
            expected = list({job.get("shortcode") or job.get("id"): job for job in expected}.values())
        result = extract(path.read_bytes(), url=f"https://example.test/{path.name}", content_type="application/json",
                         parser_key=provider_key)
        assert len(result.jobs) == len(expected), (path.name, result.warnings)
        for job in result.jobs:
            assert job.title and job.url.startswith("https://") and job.external_id, (path.name, job.title)
            assert job.evidence["title"].method == "ats-json" and job.evidence["external_id"].snippet_or_path
        if expected:
            assert 0.8 <= result.confidence <= 0.9


def test_json_payloads_are_recognised_by_host_and_markers_without_a_parser_key():
    cases = {"greenhouse-smarterdx.json": ("https://boards-api.greenhouse.io/v1/boards/smarterdx/jobs", "greenhouse"),
             "lever-gotogroup.json": ("https://api.lever.co/v0/postings/GoToGroup?mode=json", "lever"),
             "recruitee-radishlab.json": ("https://radishlab.recruitee.com/api/offers/", "recruitee"),
             "smartrecruiters-gousto.json": ("https://api.smartrecruiters.com/v1/companies/Gousto1/postings",
                                             "smartrecruiters"),
             "workable-kroo.json": ("https://apply.workable.com/api/v1/widget/accounts/kroo?details=true", "workable")}
    for name, (url, key) in cases.items():
        assert extract((ATS / name.removesuffix(".json") / "input.json").read_bytes(), url=url).parser_key == key
        # Markers alone suffice when the payload was fetched from elsewhere (a proxy, a saved file).
        if key != "recruitee":
            assert extract((ATS / name.removesuffix(".json") / "input.json").read_bytes(), url="https://cache.example/payload").parser_key == key


def test_greenhouse_detail_decodes_entity_encoded_html_once_and_reads_pay_ranges():
    result = extract((ATS / "greenhouse-codepath-job" / "input.json").read_bytes(),
                     url=greenhouse.detail_url("codepath", 4426096007), content_type="application/json")
    [job] = result.jobs
    assert result.kind == "detail" and job.external_id == "4426096007"
    assert "&lt;" not in job.description and "<div" not in job.description and "CodePath" in job.description
    assert job.salary.currency == "USD" and 0 < job.salary.min <= job.salary.max
    assert job.evidence["salary"].snippet_or_path == "$.pay_input_ranges[0]"
    # The payload names no employer: the board's name stands in (weak evidence), and the confidence drops.
    assert job.employer == "codepath" and job.evidence["employer"].method == "meta" and result.confidence < 0.9
    configured = extract((ATS / "greenhouse-codepath-job" / "input.json").read_bytes(), company="CodePath.org",
                         url=greenhouse.detail_url("codepath", 4426096007), content_type="application/json")
    assert configured.jobs[0].employer == "CodePath.org" and configured.jobs[0].evidence["employer"].method == "config"


def test_greenhouse_listing_with_content_has_employer_and_description():
    result = extract((ATS / "greenhouse-smarterdx" / "input.json").read_bytes(), url="https://boards-api.greenhouse.io/x")
    assert [job.employer for job in result.jobs] == ["SmarterDx", "SmarterDx"]
    assert all("SmarterDx" in job.description for job in result.jobs) and result.confidence == 0.9


def test_endpoint_builders_take_an_overridable_base():
    assert greenhouse.listing_url("acme") == "https://boards-api.greenhouse.io/v1/boards/acme/jobs?content=true"
    assert greenhouse.listing_url("acme", base="http://127.0.0.1:8765/") == \
        "http://127.0.0.1:8765/v1/boards/acme/jobs?content=true"
    assert lever.listing_url("acme", limit=50) == "https://api.lever.co/v0/postings/acme?mode=json&skip=0&limit=50"
    assert recruitee.listing_url("acme") == "https://acme.recruitee.com/api/offers/"
    assert recruitee.listing_url("acme", base="http://127.0.0.1:9/") == "http://127.0.0.1:9/api/offers/"
    assert smartrecruiters.listing_url("Acme1", offset=100) == \
        "https://api.smartrecruiters.com/v1/companies/Acme1/postings?offset=100&limit=100"
    assert workable.listing_url("acme") == "https://apply.workable.com/api/v1/widget/accounts/acme?details=true"
    assert greenhouse.listing_url("a/b?c").endswith("/boards/a%2Fb%3Fc/jobs?content=true")
    assert provider("lever") is lever
    with pytest.raises(KeyError, match="known: .*greenhouse"):
        provider("taleo")


def test_lever_pages_with_skip_and_limit():
    postings = json.loads((ATS / "lever-gotogroup" / "input.json").read_bytes())
    full_page = lever.listing_url("GoToGroup", limit=3)
    result = extract(json.dumps(postings).encode(), url=full_page, content_type="application/json")
    assert len(result.jobs) == 3 and result.next_page.url.endswith("skip=3&limit=3")
    assert result.jobs[0].date_posted and result.jobs[0].evidence["location"].snippet_or_path.endswith("location")
    last = extract(json.dumps(postings[:2]).encode(), url=lever.listing_url("GoToGroup", skip=3, limit=3),
                   content_type="application/json")
    assert last.next_page is None and len(last.jobs) == 2


def test_smartrecruiters_pages_with_offset_until_total_found():
    data = json.loads((ATS / "smartrecruiters-gousto" / "input.json").read_bytes())
    data.update(offset=0, limit=5, totalFound=15)
    data["content"] = data["content"][:5]
    url = smartrecruiters.listing_url("Gousto1", limit=5)
    result = extract(json.dumps(data).encode(), url=url, content_type="application/json")
    assert result.next_page.url == smartrecruiters.listing_url("Gousto1", offset=5, limit=5)
    data.update(offset=10)
    assert extract(json.dumps(data).encode(), url=url, content_type="application/json").next_page is None
    job = result.jobs[0]
    assert job.url.startswith("https://jobs.smartrecruiters.com/Gousto1/") and job.employer == "Gousto"


def test_smartrecruiters_posting_fills_one_vacancy():
    result = extract((ATS / "smartrecruiters-gousto-posting" / "input.json").read_bytes(),
                     url=smartrecruiters.detail_url("Gousto1", "744000005631445"), content_type="application/json")
    [job] = result.jobs
    assert result.kind == "detail" and job.title == "Product Manager" and job.location == "London, GB"
    assert job.description and "Recruiter Example" not in json.dumps(job.raw)  # creator is not kept


def test_workable_v3_pages_with_next_page_token_and_deduplicates_shortcodes_per_location():
    page = {"total": 3, "nextPage": "tok-2", "results": [
        {"id": 1, "shortcode": "AB12CD34EF", "title": "Welder", "location": {"city": "Geel", "country": "Belgium"},
         "locations": [{"city": "Geel", "country": "Belgium"}], "published": "2026-11-01", "type": "full"},
        {"id": 1, "shortcode": "AB12CD34EF", "title": "Welder", "location": {"city": "Mol", "country": "Belgium"},
         "locations": [{"city": "Mol", "country": "Belgium"}]},
        {"id": 2, "shortcode": "ZZ98YY76XX", "title": "Planner", "remote": True}]}
    url = workable.jobs_api_url("acme")
    result = extract(json.dumps(page).encode(), url=url, content_type="application/json")
    assert [job.external_id for job in result.jobs] == ["AB12CD34EF", "ZZ98YY76XX"]
    assert result.jobs[0].locations == ["Geel, Belgium", "Mol, Belgium"]
    assert result.jobs[0].url == "https://apply.workable.com/acme/j/AB12CD34EF/" and result.jobs[1].remote == "remote"
    assert result.next_page.method == "POST" and result.next_page.json_body == {"token": "tok-2"}
    assert any("repeated" in warning for warning in result.warnings)


def test_workable_widget_payload():
    result = extract((ATS / "workable-kroo" / "input.json").read_bytes(), url=workable.listing_url("kroo"))
    assert len(result.jobs) == 8 and {job.employer for job in result.jobs} == {"Kroo Bank Ltd"}
    assert all(job.apply_url.endswith("/apply") for job in result.jobs)


@pytest.mark.skipif(not (SHARED / "corpus" / "listings").is_dir(), reason="needs ../shared/corpus")
@pytest.mark.parametrize("board,url,key,count", [
    ("greenhouse-codepath", "https://boards.greenhouse.io/codepath", "greenhouse", 14),
    ("lever-gotogroup", "https://jobs.lever.co/GoToGroup", "lever", 168),
    ("recruitee-manual", "https://manual.recruitee.com/", "recruitee", 36),
    ("recruitee-radishlab", "https://radishlab.recruitee.com/", "recruitee", 4)])
def test_hosted_html_boards_yield_the_same_candidates_as_their_json(board, url, key, count):
    # The JSON payloads of the same boards (recorded alongside) list `count` jobs.
    result = extract((SHARED / "corpus" / "listings" / board / "1.html").read_bytes(), url=url, parser_key=key)
    assert result.parser_key == key and result.kind == "listing" and len(result.jobs) == count
    assert len({job.external_id for job in result.jobs}) == count
    assert all(job.url.startswith("https://") and job.evidence["url"].method == "css" for job in result.jobs)


def test_missing_fields_and_changed_markup_drop_or_degrade_without_crashing():
    changed = {"jobs": [{"id": 1, "title": "Only a title and id"},            # no URL: kept on its id
                        {"absolute_url": "https://boards.greenhouse.io/x/jobs/2"},  # no title: dropped
                        {"title": {"unexpected": "object"}, "id": 3},        # wrong type: dropped, no crash
                        "not an object"]}
    result = extract(json.dumps(changed).encode(), url="https://boards-api.greenhouse.io/v1/boards/x/jobs")
    assert [job.external_id for job in result.jobs] == ["1"]
    assert sum("dropped" in w for w in result.warnings) == 2
    renamed = extract(b'{"postings": []}', url="https://api.lever.co/v0/postings/x", parser_key="lever")
    assert renamed.jobs == [] and "expected a list" in renamed.warnings[0]


def test_hostile_payloads_are_contained():
    title = '<script>alert("x")</script>Engineer<img src=x onerror=alert(1)>'
    huge = "<p>" + "A" * 10_000_000 + "</p>"
    payload = {"offers": [{"id": 7, "title": title, "careers_url": "https://acme.recruitee.com/o/engineer",
                           "description": huge, "company_name": "Acme"}]}
    result = extract(json.dumps(payload).encode(), url="https://acme.recruitee.com/api/offers/")
    [job] = result.jobs
    assert job.title == "Engineer" and "script" not in job.title.lower()
    assert len(job.description) <= 20_000 and len(json.dumps(job.raw)) < 50_000
    deep = b'{"jobs": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    nested = extract(deep, url="https://boards-api.greenhouse.io/v1/boards/x/jobs")
    assert nested.jobs == [] and "nested too deeply" in nested.warnings[0]
    assert extract(b"{not json", url="https://api.lever.co/v0/postings/x").warnings[0].startswith("lever: unreadable")
