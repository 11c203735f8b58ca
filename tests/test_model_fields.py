"""Optional model extraction against a real OpenAI-compatible server on 127.0.0.1: only values whose exact quote
is in the page are kept, only for fields the adapters left empty; off by default; a failing server costs a
warning, never the item."""

import json

from scrapy.utils.test import get_crawler
from twisted.internet.defer import Deferred

from gigflow.adapters import extract
from gigflow.items import JobPageItem
from gigflow.pipelines.model_fields import ModelFieldsPipeline
from gigflow.spiders.href import HrefSpider
from openai_stub_server import http_error, raw_content

PAGE = """# Warehouse Operative

**Where:** Unit 4, Riverside Park, Doncaster

Posted 2 days ago by Kestrel Distribution Ltd. Nights, 40 hours a week.
"""
HTML = b"<html><body><main><h1>Warehouse Operative</h1><p>Nights, 40 hours a week.</p></main></body></html>"


def _item() -> JobPageItem:
    result = extract(HTML, url="https://kestrel.example/jobs/4")
    return JobPageItem(url="https://kestrel.example/jobs/4", markdown=PAGE, warnings=list(result.warnings),
                       jobs=[job.model_dump(mode="json", exclude_none=True) for job in result.jobs])


def _pipeline(monkeypatch, base_url: str | None, model: str = "stub-model") -> ModelFieldsPipeline:
    if base_url:
        monkeypatch.setenv("OPENAI_BASE_URL", base_url)
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    return ModelFieldsPipeline.from_crawler(get_crawler(HrefSpider, {"EXTRACT_MODEL": model,
                                                                    "EXTRACT_MODEL_TIMEOUT": 5}))


def test_only_quoted_values_fill_empty_fields(monkeypatch):
    from openai_stub_server import OpenAIStub

    proposals = {
        "title": {"value": "Forklift Driver", "quote": "Forklift Driver wanted"},  # title already found: ignored
        "employer": {"value": "Kestrel Distribution Ltd", "quote": "Posted 2 days ago by Kestrel Distribution Ltd."},
        "location": {"value": "Leeds", "quote": "Where: Leeds"},  # not in the page: rejected
        "date_posted": {"value": "2 days ago", "quote": "Posted 2 days ago"},
        "employment_type": {"value": "Full-time", "quote": "Nights, 40 hours a week."},  # not in its quote
    }
    with OpenAIStub(default=raw_content(json.dumps(proposals))) as stub:
        item = _pipeline(monkeypatch, stub.base_url).fill(_item())
    [request] = stub.requests
    assert request["model"] == "stub-model" and request["response_format"]["json_schema"]["strict"] is True
    assert json.loads(request["messages"][1]["content"])["page"] == PAGE
    [job] = item["jobs"]
    assert job["title"] == "Warehouse Operative"
    assert job["employer"] == "Kestrel Distribution Ltd" and job["evidence"]["employer"]["method"] == "model"
    assert job["evidence"]["employer"]["snippet_or_path"] == "Posted 2 days ago by Kestrel Distribution Ltd."
    assert len(job["date_posted"]) == 10 and job["evidence"]["date_posted"]["method"] == "model"
    assert "location" not in job and "employment_type" not in job
    assert any("location 'Leeds' rejected: quote not in the page" in w for w in item["warnings"])
    assert any("employment_type 'Full-time' rejected: value not in its quote" in w for w in item["warnings"])


def test_off_by_default_and_a_failing_server_costs_only_a_warning(monkeypatch):
    monkeypatch.delenv("GIGFLOW_EXTRACT_MODEL", raising=False)
    off = _pipeline(monkeypatch, None, model="")
    item = _item()
    assert off.process_item(item) is item and "employer" not in item["jobs"][0]
    from openai_stub_server import OpenAIStub

    with OpenAIStub(default=http_error(500)) as stub:
        pipeline = _pipeline(monkeypatch, stub.base_url)
        assert isinstance(pipeline.process_item(_item()), Deferred)  # the call runs off the reactor thread
        failed = pipeline.fill(_item())
    assert failed["jobs"][0]["title"] == "Warehouse Operative"
    assert any(w.startswith("model: no proposal (InternalServerError") for w in failed["warnings"])
