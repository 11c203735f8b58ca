"""The base every strategy spider shares: load the source, mark job requests, build items."""

from __future__ import annotations

import hashlib
from functools import cached_property

import scrapy

from gigflow.adapters import extract as extract_content
from gigflow.db import get_pool
from gigflow.items import JobPageItem
from gigflow.middlewares.conditional_get import NOT_MODIFIED_VERSION
from gigflow.middlewares.preparation import JOB, PREPARED
from gigflow.noise.lifecycle.current import get_current_noise_filter
from gigflow.patterns import search_any
from gigflow.politeness.safety import FetchGuard
from gigflow.sources.repository import SourceRecord, UnknownSourceError, get_source
from gigflow.sql import load_sql

REPLAYED = "gigflow_replayed_not_modified"


class SourceSpider(scrapy.Spider):
    """Runs one strategy of one source: ``scrapy crawl <strategy> -a source=<id>``."""

    strategy_type: str = ""
    # False for spiders whose inputs are not listings (a mailbox): a job missing from them is not gone.
    marks_gone: bool = True

    def __init__(self, source: str | None = None, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not source:
            raise ValueError(f"usage: scrapy crawl {self.name} -a source=<id>")
        self.source_id = source
        self.record: SourceRecord | None = None
        self.noise_filter = None
        self.strategy = None

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        try:
            spider = super().from_crawler(crawler, *args, **kwargs)
            spider.load_source()
        except (UnknownSourceError, ValueError) as exc:
            # Bad input, not a bug: one line on stderr and a non-zero exit status, no traceback.
            raise SystemExit(f"scrapy crawl {cls.name}: {exc}") from None
        return spider

    def load_source(self) -> None:
        self.record = get_source(get_pool(), self.source_id)
        # Read once per run; preparation applies it and conditional GET compares its fingerprint.
        self.noise_filter = get_current_noise_filter(self.record.stored_config, self.record.config_hash,
                                                     self.crawler.settings.getint("NOISE_FILTER_MAX_BYTES"))
        self.strategy = self.record.config.strategy(self.strategy_type)
        if self.strategy is None:
            raise ValueError(f"source {self.source_id!r} has no {self.strategy_type!r} strategy")

    # -- helpers for subclasses -------------------------------------------------------------------------------

    def job_request(self, url: str, **kwargs) -> scrapy.Request:
        meta = {**kwargs.pop("meta", {}), JOB: True}
        return scrapy.Request(url, callback=self.parse_job, errback=self.on_fetch_error, meta=meta, **kwargs)

    def on_fetch_error(self, failure):
        """A failed fetch makes the run incomplete, so no job is marked gone on its account."""
        self.crawler.stats.inc_value("gigflow/fetch_failures")
        self.logger.warning("fetch failed: %s: %s", failure.request.url, failure.getErrorMessage())

    @staticmethod
    def matches(url: str, patterns: list[str], exclusions: list[str]) -> bool:
        """A job URL matches one of the patterns (all URLs when none are given) and none of the exclusions."""
        if patterns and not search_any(patterns, url):
            return False
        return not search_any(exclusions, url)

    def mark_incomplete(self, reason: str) -> None:
        """This run saw only part of the listing (a cap, an unreachable board): no job is marked gone."""
        self.crawler.stats.inc_value("gigflow/incomplete")
        self.logger.warning("run incomplete: %s", reason)

    @property
    def parser_key(self) -> str | None:
        """The adapter this source's content is read with first (None: the chain decides)."""
        return self.record.config.parser_key

    def extract(self, body: bytes, *, url: str, content_type: str | None = None):
        """The adapters' ExtractionResult for one body."""
        return extract_content(body, url=url, content_type=content_type, parser_key=self.parser_key,
                               url_guard=self.url_guard,
                               max_html_bytes=self.crawler.settings.getint("EXTRACTION_MAX_HTML_BYTES"))

    @cached_property
    def url_guard(self) -> FetchGuard:
        """The crawl's fetch guard: extracted job and apply URLs it would refuse are dropped."""
        return FetchGuard.from_settings(self.crawler.settings)

    def parse_job(self, response):
        if response.status == 304 and response.meta.get(NOT_MODIFIED_VERSION):
            # Conditional GET: unchanged, nothing to store; the pipeline re-confirms the previous version's jobs.
            yield JobPageItem(source_id=self.source_id, url=response.url, http_status=304, version_status="unchanged",
                              source_version_id=response.meta[NOT_MODIFIED_VERSION], jobs=[], warnings=[])
            return
        yield self.response_item(response)

    def replay_not_modified(self, response):
        """A listing (feed, ATS payload) answered 304: its stored body is read again, since its next pages and
        links are needed, not only its jobs. Other responses are returned as they are."""
        version_id = response.meta.get(NOT_MODIFIED_VERSION)
        if response.status != 304 or not version_id:
            return response
        with get_pool().connection() as conn:
            row = conn.execute(load_sql("gigflow.spiders", "version_body.sql"),
                               {"id": version_id, "source_id": self.source_id}).fetchone()
        if row is None:
            return response
        self.crawler.stats.inc_value("gigflow/listings_not_modified")
        headers = {"Content-Type": row["content_type"]} if row["content_type"] else {}
        response.meta[REPLAYED] = True
        return response.replace(status=200, body=bytes(row["body"]), headers=headers)

    def response_result(self, response):
        """The adapters' ExtractionResult for one response, by its content type."""
        return self.extract(response.body, url=response.url, content_type=_header(response, b"Content-Type"))

    def read_listing(self, response):
        """A listing (feed, ATS board): replay a 304 from the store, extract, and treat an unreadable payload as
        an incomplete run rather than an empty one. Returns (response, result)."""
        response = self.replay_not_modified(response)
        result = self.response_result(response)
        if not result.jobs and result.warnings:
            self.mark_incomplete(f"{response.url}: {'; '.join(result.warnings)[:300]}")
        return response, result

    def response_item(self, response, result=None) -> JobPageItem:
        """The stored version of one response: its body, PreparedDocument and the adapters' result."""
        content_type = _header(response, b"Content-Type")
        if result is None:
            result = self.response_result(response)
        if response.meta.get(REPLAYED):  # the stored version is what this body is: nothing new to prepare
            return self.page_item(response.url, response.body, result, prepared=None, expect_prepared=False,
                                  content_type=content_type, warnings=["not modified: the stored body was read again"])
        return self.page_item(response.url, response.body, result, prepared=response.meta.get(PREPARED),
                              http_status=response.status, content_type=content_type,
                              etag=_header(response, b"ETag"), last_modified=_header(response, b"Last-Modified"))

    def page_item(self, url: str, body: bytes, result, *, prepared=None, http_status: int = 200,
                  content_type: str | None = None, etag: str | None = None, last_modified: str | None = None,
                  warnings: list[str] | None = None, expect_prepared: bool = True) -> JobPageItem:
        """One stored version: the raw body, its PreparedDocument (None if preparation failed) and jobs."""
        warnings = list(warnings or []) + list(result.warnings)
        if prepared is None and expect_prepared:
            warnings.append("preparation failed; see the crawl log")
        return JobPageItem(
            source_id=self.source_id,
            url=url,
            http_status=http_status,
            content_type=content_type,
            etag=etag,
            last_modified=last_modified,
            body=body,
            sha256=hashlib.sha256(body).hexdigest(),
            size=len(body),
            title=prepared.title if prepared else None,
            markdown=prepared.markdown if prepared else None,
            links=prepared.links if prepared else [],
            preparation=prepared.report.model_dump(mode="json") if prepared else None,
            jobs=[job.model_dump(mode="json", exclude_none=True) for job in result.jobs],
            parser_key=result.parser_key,
            parser_version=result.parser_version,
            confidence=result.confidence,
            warnings=warnings,
        )


def _header(response, name: bytes) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value else None
