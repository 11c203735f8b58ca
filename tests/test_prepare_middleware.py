"""The preparation middleware inside a Scrapy crawler: job marking, click captures, payloads, noise filters."""

from __future__ import annotations

import json

import pytest
import scrapy
from scrapy.http import HtmlResponse, Request, Response, TextResponse
from scrapy.utils.test import get_crawler

from gigflow.context import CrawlContext
from gigflow.middlewares.preparation import CAPTURE_HTML, JOB, PREPARED, PreparationMiddleware
from gigflow.noise import NoiseFilter, RemovalRule, region_signature
from gigflow.sources.config import SourceConfig
from gigflow.sources.repository import SourceRecord
from helpers import FIXTURES

DOCS = FIXTURES / "documents"
CONFIG = SourceConfig(id="care", company="Example Care", canonical_url="https://care.example/",
                      strategies=[{"type": "click", "listing_url": "https://care.example/vacatures",
                                   "item_selector": ".result-item", "detail_selector": ".job-panel"}])


class StrategySpider(scrapy.Spider):
    name = "strategy-test"


def opened_middleware(stored_config=None, settings=None):
    """The middleware of a crawler whose context was opened with this source (as SourceSpider.load_source does,
    without the database): the stored noise filter is read through getCurrentNoiseFilter."""
    record = SourceRecord(config=CONFIG, configuration_id=1, config_hash=CONFIG.config_hash(),
                          stored_config=stored_config or {}, token=1)
    crawler = get_crawler(StrategySpider, settings_dict=settings or {})
    crawler.spider = StrategySpider()
    CrawlContext.from_crawler(crawler).attach(record, strategy_type="click", spider_name=StrategySpider.name)
    middleware = PreparationMiddleware.from_crawler(crawler)
    return middleware, crawler.spider


def run(middleware, spider, url, body=b"", meta=None, headers=None, cls=HtmlResponse):
    request = Request(url, meta=meta or {})
    response = cls(url, body=body, headers=headers or {}, request=request)
    assert middleware.process_response(request, response, spider) is response  # passes through unchanged
    return request.meta.get(PREPARED)


def test_only_job_responses_are_prepared():
    middleware, spider = opened_middleware()
    assert run(middleware, spider, "https://care.example/vacatures", b"<p>listing</p>") is None
    prepared = run(middleware, spider, "https://care.example/vacatures", (DOCS / "click_listing.html").read_bytes(),
                   meta={JOB: True}, headers={"Content-Type": "text/html"})
    assert prepared.format == "html" and "Nurse, Utrecht" not in prepared.markdown  # the click strategy applied


def test_a_click_capture_is_prepared_instead_of_the_page():
    middleware, spider = opened_middleware()
    capture = (DOCS / "click_capture_item_is_detail.html").read_text()
    prepared = run(middleware, spider, "https://care.example/vacatures", (DOCS / "click_listing.html").read_bytes(),
                   meta={JOB: True, CAPTURE_HTML: capture})
    assert "Leiden · 32 hours a week · salary scale 8." in prepared.markdown
    assert "Carer, Zwolle" not in prepared.markdown  # the listing page itself is not what is stored


@pytest.mark.parametrize("content_type, body, fmt", [
    ("application/json", json.dumps({"jobs": [{"title": "Nurse", "url": "https://care.example/j/1"}]}).encode(), "json"),
    ("application/rss+xml", b"<?xml version='1.0'?><rss><channel><item><link>https://care.example/j/2</link>"
                            b"</item></channel></rss>", "xml"),
])
def test_payloads_pass_through_with_their_format(content_type, body, fmt):
    middleware, spider = opened_middleware()
    prepared = run(middleware, spider, "https://care.example/api", body, meta={JOB: True},
                   headers={"Content-Type": content_type}, cls=TextResponse)
    assert prepared.format == fmt and prepared.markdown.startswith(f"```{fmt}\n")
    assert body.decode() in prepared.markdown and prepared.links


def test_a_binary_pdf_response_is_prepared_too():
    middleware, spider = opened_middleware()
    prepared = run(middleware, spider, "https://care.example/job.pdf", b"%PDF-1.4 broken", meta={JOB: True},
                   headers={"Content-Type": "application/pdf"}, cls=Response)
    assert prepared.format == "pdf" and prepared.report.errors  # a clear error, not a crashed crawl


def test_the_stored_noise_filter_is_used_only_for_the_current_configuration():
    page = (b"<html><body><footer class='site'>Site footer</footer><main><h1>Nurse</h1></main>"
            b"<footer class='apply'>Apply by 1 May</footer></body></html>")
    from lxml import html as lxml_html

    region = lxml_html.fromstring(page).find(".//footer")
    rule = RemovalRule(selector="footer.site", signature=region_signature(region), decision="remove",
                       classifier="rules")
    current = NoiseFilter(config_hash=CONFIG.config_hash(), rules=[rule]).model_dump(mode="json")
    middleware, spider = opened_middleware({"noiseFilter": current})
    prepared = run(middleware, spider, "https://care.example/j/1", page, meta={JOB: True})
    assert "Site footer" not in prepared.markdown and "Apply by 1 May" in prepared.markdown

    stale = {**current, "config_hash": "0" * 64}
    middleware, spider = opened_middleware({"noiseFilter": stale})
    prepared = run(middleware, spider, "https://care.example/j/1", page, meta={JOB: True})
    assert "Site footer" in prepared.markdown


def test_the_converter_setting_is_honoured_and_an_unknown_one_is_named():
    middleware, _ = opened_middleware(settings={"MARKDOWN_CONVERTER": "markdownify"})
    assert middleware.preparer.converter == "markdownify"
    with pytest.raises(ValueError, match="unknown MARKDOWN_CONVERTER 'pandoc'"):
        opened_middleware(settings={"MARKDOWN_CONVERTER": "pandoc"})
