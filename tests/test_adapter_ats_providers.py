"""The ATS adapters added with issue #25 on every corpus payload of their providers: each payload's own job count,
title, URL and employer on every job, and location, date and description wherever the payload has them; plus
variant shapes (missing fields, other wrappers) and the employer rule for all providers."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

import pytest

from gigflow.adapters import extract
from gigflow.adapters.ats import ADAPTERS, PROVIDERS
from helpers import FIXTURES, SHARED

CORPUS = SHARED / "corpus"
ATS = FIXTURES / "adapters" / "ats"
FETCHED_AT = datetime(2026, 12, 1, tzinfo=timezone.utc)
# Where a payload was fetched from, for those whose MANIFEST row does not say (the board's own endpoint).
KNOWN_URLS = {
    "ats/workday/nvidia.json": "https://nvidia.wd5.myworkdayjobs.com/wday/cxs/nvidia/NVIDIAExternalCareerSite/jobs",
    "ats/jibe/jcpenney.json": "https://jobs.jcp.com/api/jobs?page=1&limit=10",
    "ats/personio/threadi-example.xml": "https://threadi.jobs.personio.de/xml",
    "ats/personio/threadi-positions.xml": "https://threadi.jobs.personio.de/xml",
    "feeds/personio-rtc-rath__1.xml": "https://rtc-rath.jobs.personio.de/xml",
    "ats/radancy/veolia.json": "https://jobs.veolia.com/fr/search-jobs/results?CurrentPage=1",
    "ats/teamtailor/api-v1-jobs.json": "https://api.teamtailor.com/v1/jobs",
    "ats/teamtailor/api-v1-job.json": "https://api.teamtailor.com/v1/jobs/26",
    "feeds/teamtailor-leaseweb__1.json": "https://leaseweb.teamtailor.com/jobs.json",
    "feeds/teamtailor-tibber__1.json": "https://tibber.teamtailor.com/jobs.json",
}
# API v1 payloads name no company (and these come from a development instance): the source's company stands in.
COMPANIES = {"ats/teamtailor/api-v1-jobs.json": "Company0", "ats/teamtailor/api-v1-job.json": "Company0"}
NEW = ("ashby", "workday", "personio", "teamtailor", "bamboohr", "breezy", "pinpoint", "manatal", "jibe", "radancy")


def manifest_urls() -> dict[str, str]:
    """Each payload's origin: the recorded request, else the board's public endpoint (the site column names it)."""
    urls = dict(KNOWN_URLS)
    for line in (CORPUS / "MANIFEST.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        columns = line.split("\t")
        match = re.search(r"(?:GET|POST) (https?://\S+?);", columns[-1])
        if match:
            urls.setdefault(columns[0], match.group(1))
        elif columns[4] in ("ats-ashby", "ats-breezy", "ats-pinpoint"):
            urls.setdefault(columns[0], PROVIDERS[columns[4][4:]].listing_url(columns[5]))
    return urls


def corpus_payloads() -> list[tuple[str, str]]:
    """(provider, corpus path) of every payload of the new providers, the feeds folder's included."""
    if not CORPUS.is_dir():
        return []
    found = [(path.parent.name, str(path.relative_to(CORPUS))) for provider in NEW
             for path in sorted((CORPUS / "ats" / provider).glob("*")) if path.is_file()]
    found += [(path.name.split("-")[0], str(path.relative_to(CORPUS))) for path in sorted((CORPUS / "feeds").glob("*"))
              if path.name.split("-")[0] in ("personio", "teamtailor")]
    return found


def payload_items(provider: str, body: bytes) -> list[dict]:
    """The payload's own job records, read independently of the adapters (as each provider lays them out), each
    as {field: whether the record has it}."""
    if provider == "personio":
        positions = re.findall(rb"<position>(.*?)</position>", body, re.S)
        return [{"location": b"<office>" in p, "date": b"<createdAt>" in p, "description": b"<jobDescription>" in p}
                for p in positions]
    if provider == "radancy":
        fragment = json.loads(body)["results"]
        ids = dict.fromkeys(re.findall(r'data-job-id="(\d+)"', fragment))
        return [{"location": "job-location" in fragment, "date": False, "description": False} for _ in ids]
    data = json.loads(body)
    if provider == "teamtailor":
        items = data.get("items") or (data["data"] if isinstance(data["data"], list) else [data["data"]])
        return [{"location": bool(i.get("_jobposting", {}).get("jobLocation")), "date": True,
                 "description": bool(i.get("content_html") or (i.get("attributes") or {}).get("body"))} for i in items]
    records = {
        "ashby": lambda d: d["jobs"], "workday": lambda d: d.get("jobPostings") or [d["jobPostingInfo"]],
        "bamboohr": lambda d: d["result"] if isinstance(d["result"], list) else [d["result"]["jobOpening"]],
        "breezy": lambda d: d, "pinpoint": lambda d: d["data"], "manatal": lambda d: d["results"],
        "jibe": lambda d: [j["data"] for j in d["jobs"]],
    }[provider](data)
    fields = {
        "ashby": ("location", "publishedAt", "descriptionHtml"),
        "workday": ("locationsText", "startDate", "jobDescription"),
        "bamboohr": ("location", "datePosted", "description"),
        "breezy": ("location", "published_date", "description"),
        "pinpoint": ("location", "published_at", "description"),
        "manatal": ("location_display", "created_at", "description"),
        "jibe": ("full_location", "posted_date", "description"),
    }[provider]
    # Workday's "2 Locations" is a count, not a place.
    if provider == "bamboohr":
        return [{"location": any(any((r.get(k) or {}).values()) for k in ("location", "atsLocation")),
                 "date": bool(r.get("datePosted")), "description": bool(r.get("description"))} for r in records]
    return [{"location": bool(r.get(fields[0])) and not re.fullmatch(r"\d+ Locations?", str(r.get(fields[0]))),
             "date": bool(r.get(fields[1])), "description": bool(r.get(fields[2]))} for r in records]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpus")
@pytest.mark.parametrize("provider, path", corpus_payloads(), ids=lambda value: str(value))
def test_every_corpus_payload_gives_its_jobs_with_title_url_employer_and_the_fields_it_has(provider, path):
    body = (CORPUS / path).read_bytes()
    url = manifest_urls().get(path)
    assert url, f"no origin URL known for {path}"
    expected = payload_items(provider, body)
    result = extract(body, url=url, parser_key=provider, fetched_at=FETCHED_AT, company=COMPANIES.get(path))
    assert result.parser_key == provider and len(result.jobs) == len(expected), (path, result.warnings)
    for job, has in zip(result.jobs, expected):
        assert job.title and job.url and job.url.startswith("http") and job.employer, (path, job.title)
        assert job.evidence["title"].method in ("ats-json", "css") and job.evidence["employer"].snippet_or_path
        assert bool(job.location) >= has["location"] and bool(job.description) >= has["description"], (path, job.title)
        assert bool(job.date_posted) >= has["date"], (path, job.title)
        assert len(json.dumps(job.raw)) < 20000  # raw stays small
    assert 0.75 <= result.confidence <= 0.9


@pytest.mark.parametrize("provider", sorted(ADAPTERS))
def test_every_provider_names_the_employer_from_the_payload_else_the_configured_company(provider):
    cases = sorted(ATS.glob(f"{provider}-*/expected.json"))
    assert cases, provider
    for case in cases:
        given = json.loads(case.read_text(encoding="utf-8"))["given"]
        [body] = case.parent.glob("input.*")
        result = extract(body.read_bytes(), url=given["url"], content_type=given.get("content_type"),
                         parser_key=given.get("parser_key") or provider, company="Configured Employer")
        assert result.jobs
        for job in result.jobs:
            evidence = job.evidence["employer"]
            assert job.employer and (evidence.method != "config" or job.employer == "Configured Employer")
            assert evidence.method in ("ats-json", "config", "meta")


def test_variant_shapes_and_missing_fields_are_read_without_failing():
    ashby_one = {"job": {"id": "0b6bd2b3-1b1a-4a9c-9d2e-4a1f2b3c4d5e", "title": "Welder", "isRemote": True,
                         "jobUrl": "https://jobs.ashbyhq.com/acme/0b6bd2b3-1b1a-4a9c-9d2e-4a1f2b3c4d5e"},
                 "organizationName": "Acme"}
    [job] = extract(json.dumps(ashby_one).encode(), url="https://api.ashbyhq.com/posting-api/job-board/acme",
                    parser_key="ashby").jobs
    assert job.employer == "Acme" and job.remote == "remote" and job.location is None
    workday = {"total": 1, "jobPostings": [{"title": "Nurse", "externalPath": "/job/Mol/Nurse_JR-7",
                                            "locationsText": "2 Locations"}, {"title": None}]}
    result = extract(json.dumps(workday).encode(), parser_key="workday", company="Acme Care",
                     url="https://acme.wd3.myworkdayjobs.com/wday/cxs/acme/Ext/jobs")
    [job] = result.jobs
    assert job.url == "https://acme.wd3.myworkdayjobs.com/Ext/job/Mol/Nurse_JR-7" and job.external_id == "JR-7"
    assert job.location is None and job.employer == "Acme Care"  # "2 Locations" is a count, not a place
    breezy_wrapped = {"positions": [{"id": "ab12cd34ef56", "name": "Cook", "url": "https://acme.breezy.hr/p/ab12cd34ef56",
                                     "location": "Ghent", "type": "fullTime"}]}
    [job] = extract(json.dumps(breezy_wrapped).encode(), url="https://acme.breezy.hr/json", parser_key="breezy").jobs
    assert job.location == "Ghent" and job.employment_type == "fullTime" and job.employer == "acme"
    personio = (b'<?xml version="1.0"?><workzag-jobs><position><id>7</id><name>Baker</name></position>'
                b'<position><name>No id</name></position></workzag-jobs>')
    result = extract(personio, url="https://acme.jobs.personio.com/xml")
    assert result.parser_key == "personio" and [j.url for j in result.jobs] == ["https://acme.jobs.personio.com/job/7"]
    assert any("dropped" in w for w in result.warnings)
    graphql = {"data": {"jobBoard": {"teams": [], "jobPostings": [
        {"id": "0b6bd2b3-1b1a-4a9c-9d2e-4a1f2b3c4d5e", "title": "Welder", "locationName": "Ghent",
         "secondaryLocations": [{"locationName": "Mol"}], "compensationTierSummary": "€40K – €50K"}]}}}
    [job] = extract(json.dumps(graphql).encode(), url="https://jobs.ashbyhq.com/acme", parser_key="ashby").jobs
    assert job.url.endswith("/acme/0b6bd2b3-1b1a-4a9c-9d2e-4a1f2b3c4d5e") and job.locations == ["Ghent", "Mol"]
    assert job.salary.raw == "€40K – €50K" and job.employer == "acme"
    search = [{"id": 12, "name": "Baker", "office": "Berlin", "employment_type": "permanent", "schedule": "full-time"}]
    [job] = extract(json.dumps(search).encode(), url="https://acme.jobs.personio.de/search.json", parser_key="personio").jobs
    assert job.url == "https://acme.jobs.personio.de/job/12" and job.employment_type == "permanent full-time"
    for provider in ("manatal", "jibe", "pinpoint", "bamboohr", "radancy", "teamtailor", "personio", "workday"):
        broken = extract(b'{"unexpected": true}', url="https://x.example/api", parser_key=provider)
        assert broken.jobs == [] and broken.warnings and broken.parser_key == provider


def test_payloads_are_recognised_by_their_markers_without_a_parser_key():
    for name, key in (("ashby-lightdash", "ashby"), ("workday-motorolasolutions", "workday"),
                      ("bamboohr-premise", "bamboohr"), ("breezy-matroid", "breezy"), ("pinpoint-jed", "pinpoint"),
                      ("manatal-ptc-group", "manatal"), ("jibe-jcpenney", "jibe"), ("radancy-veolia", "radancy"),
                      ("personio-rtc-rath", "personio"), ("teamtailor-api-v1-jobs", "teamtailor")):
        [body] = (ATS / name).glob("input.*")
        assert extract(body.read_bytes(), url="https://cache.example/payload").parser_key == key, name


def test_a_board_is_configured_by_id_or_by_its_public_url():
    from gigflow.adapters.ats import base_url
    from gigflow.sources.config import AtsStrategy

    cases = {("workday", "https://acme.wd5.myworkdayjobs.com/en-US/External"): "acme.wd5/External",
             ("greenhouse", "https://boards.greenhouse.io/embed/job_board?for=acme"): "acme",
             ("radancy", "https://jobs.acme.example/fr/search-jobs"): "jobs.acme.example/fr",
             ("jibe", "https://careers.acme.example/jobs"): "careers.acme.example",
             ("personio", "https://acme.jobs.personio.com/"): "acme.com"}
    for (provider, url), board in cases.items():
        strategy = AtsStrategy(provider=provider, board_url=url)
        assert strategy.board_id == board and strategy.model_dump()["board_url"] == url
    assert base_url("workday", "acme.wd5/External") == "https://acme.wd5.myworkdayjobs.com"
    assert base_url("personio", "acme.com") == "https://acme.jobs.personio.com"
    assert base_url("radancy", "jobs.acme.example/fr", overrides={"radancy": "http://127.0.0.1:9"}) == "http://127.0.0.1:9"
    assert "board_url" not in AtsStrategy(provider="ashby", board_id="acme").model_dump()  # the hash stays as it was
    with pytest.raises(ValueError, match="names no lever board"):
        AtsStrategy(provider="lever", board_url="https://boards.greenhouse.io/acme")
    with pytest.raises(ValueError, match="board_id or board_url"):
        AtsStrategy(provider="lever")
