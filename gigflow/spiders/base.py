"""The base every strategy spider shares: open the crawl context, mark job requests, build items."""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from functools import cached_property

import scrapy

from gigflow.adapters import extract as extract_content
from gigflow.adapters.page import page_jobs, stored_document
from gigflow.context import CrawlContext
from gigflow.documents.types import PreparedDocument
from gigflow.items import JobPageItem
from gigflow.keys import LISTING_LINKS, REPLAYED, REPLAYED_DOCUMENT  # noqa: F401  (their names live in gigflow.keys)
from gigflow.middlewares.conditional_get import NOT_MODIFIED_VERSION
from gigflow.middlewares.politeness import CrawlClosing
from gigflow.middlewares.preparation import JOB, PREPARED
from gigflow.patterns import search_any
from gigflow.safety.guard import FetchGuard
from gigflow.sources.repository import SourceRecord, UnknownSourceError



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
        self.context: CrawlContext | None = None

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
        """Open the run's crawl context: the source, its strategy and noise filter, read once for every part."""
        self.context = CrawlContext.from_crawler(self.crawler)
        self.context.open(self.source_id, strategy_type=self.strategy_type, spider_name=self.name,
                          marks_gone=self.marks_gone)

    @property
    def record(self) -> SourceRecord | None:
        return self.context.record if self.context else None

    @property
    def strategy(self):
        return self.context.strategy if self.context else None

    @property
    def noise_filter(self):
        return self.context.noise_filter if self.context else None

    # -- helpers for subclasses -------------------------------------------------------------------------------

    def job_request(self, url: str, **kwargs) -> scrapy.Request:
        meta = {**kwargs.pop("meta", {}), JOB: True}
        return scrapy.Request(url, callback=self.parse_job, errback=self.on_fetch_error, meta=meta, **kwargs)

    def on_fetch_error(self, failure):
        """A failed fetch makes the run incomplete, so no job is marked gone on its account."""
        from gigflow.db.outage import INCOMPLETE_DATABASE, is_database_error

        if is_database_error(failure.value):  # the database's fault, never blamed on the site
            self.mark_incomplete(f"{failure.request.url} not fetched: the database cannot be reached",
                                 INCOMPLETE_DATABASE)
            return
        if isinstance(failure.value, CrawlClosing):  # the crawl closed first (a page cap, a stop): not the site's
            self.mark_incomplete(f"{failure.request.url} not fetched: the crawl closed first", "closed_early")
            return
        self.crawler.stats.inc_value("gigflow/fetch_failures")
        self.mark_incomplete(f"fetch failed: {failure.request.url}: {failure.getErrorMessage()}", "fetch_failed")

    @staticmethod
    def matches(url: str, patterns: list[str], exclusions: list[str]) -> bool:
        """A job URL matches one of the patterns (all URLs when none are given) and none of the exclusions."""
        if patterns and not search_any(patterns, url):
            return False
        return not search_any(exclusions, url)

    def mark_incomplete(self, reason: str, code: str = "partial_listing") -> None:
        """This run saw only part of the listing (a cap, an unreachable board): no job is marked gone. The
        first ``code`` becomes the run's outcome, ``incomplete:<code>``; ``reason`` goes to the log."""
        self.context.mark_incomplete(reason, code)

    def count_listing(self, url: str, job_links: int) -> None:
        """Job links a listing's first page yielded: a listing that had jobs in the last complete run and now
        yields none makes the run ``incomplete:empty_listing``."""
        self.crawler.stats.inc_value(LISTING_LINKS + url, job_links)

    @property
    def parser_key(self) -> str | None:
        """The adapter this source's content is read with first (None: the chain decides)."""
        return self.record.config.parser_key

    def extract(self, body: bytes, *, url: str, content_type: str | None = None):
        """The adapters' ExtractionResult for one body: the source's company is the employer of last resort,
        relative dates are read against now (the fetch), and job and apply URLs the fetch guard would refuse are
        dropped. A body with no job says why in the crawl log."""
        result = extract_content(body, url=url, content_type=content_type, parser_key=self.parser_key,
                                 company=self.record.config.company if self.record else None,
                                 fetched_at=datetime.now(timezone.utc), url_guard=self.url_guard,
                                 max_html_bytes=self.crawler.settings.getint("EXTRACTION_MAX_HTML_BYTES"))
        if not result.jobs:
            self.logger.info("no job on %s: %s", url, "; ".join(result.warnings)[:500] or "no reason given")
        return result

    @cached_property
    def url_guard(self) -> FetchGuard:
        """The crawl's fetch guard: extracted job and apply URLs it would refuse are dropped."""
        return FetchGuard.from_settings(self.crawler.settings)

    def parse_job(self, response):
        # A 304 is read again from the stored body: its jobs are extracted by today's adapters (a newer parser
        # version re-extracts them, a job marked gone by mistake comes back) and the export carries them.
        response = self.replay_not_modified(response)
        if response.status == 304:  # no stored body to stand for it: the page was not read
            self.mark_incomplete(f"{response.url} answered 304 but no stored version matches", "fetch_failed")
            return
        yield self.response_item(response)

    def replay_not_modified(self, response):
        """A listing (feed, ATS payload) answered 304: its stored body is read again, since its next pages and
        links are needed, not only its jobs. Other responses are returned as they are."""
        version_id = response.meta.get(NOT_MODIFIED_VERSION)
        if response.status != 304 or not version_id:
            return response
        row = self.context.stored_body(version_id)
        if row is None:
            return response
        self.crawler.stats.inc_value("gigflow/listings_not_modified")
        headers = {"Content-Type": row.content_type} if row.content_type else {}
        response.meta[REPLAYED] = True
        response.meta[REPLAYED_DOCUMENT] = stored_document(row, response.url)
        return response.replace(status=200, body=bytes(row.body), headers=headers)

    def stored_page_item(self, url: str, reason: str) -> JobPageItem | None:
        """A page not fetched because it is known unchanged: its latest stored version, extracted again by
        today's adapters (so its jobs count as seen, a newer parser re-extracts them and exports carry them).
        None when nothing is stored for the URL."""
        row = self.context.latest_version(url)
        if row is None:
            return None
        body = bytes(row.body)
        item = self.page_item(url, body, self.extract(body, url=url, content_type=row.content_type),
                              stored=stored_document(row, url), expect_prepared=False, http_status=304,
                              content_type=row.content_type,
                              warnings=[f"not fetched ({reason}); the stored body was read again"])
        item.update(source_version_id=row.id, not_fetched=reason)
        return item

    def response_result(self, response):
        """The adapters' ExtractionResult for one response, by its content type."""
        return self.extract(response.body, url=response.url, content_type=_header(response, b"Content-Type"))

    def read_listing(self, response):
        """A listing (feed, ATS board): replay a 304 from the store, extract, and treat an unreadable payload as
        an incomplete run rather than an empty one. Returns (response, result)."""
        response = self.replay_not_modified(response)
        result = self.response_result(response)
        if not result.jobs and result.warnings:
            self.mark_incomplete(f"{response.url}: {'; '.join(result.warnings)[:300]}", "listing_unreadable")
        return response, result

    def response_item(self, response, result=None) -> JobPageItem:
        """The stored version of one response: its body, PreparedDocument and the adapters' result."""
        content_type = _header(response, b"Content-Type")
        if result is None:
            result = self.response_result(response)
        if response.meta.get(REPLAYED):  # the stored version is what this body is: nothing new to prepare
            return self.page_item(response.url, response.body, result, stored=response.meta.get(REPLAYED_DOCUMENT),
                                  expect_prepared=False,
                                  http_status=304, content_type=content_type,
                                  warnings=["not modified: the stored body was read again"])
        return self.page_item(response.url, response.body, result, prepared=response.meta.get(PREPARED),
                              http_status=response.status, content_type=content_type,
                              etag=_header(response, b"ETag"), last_modified=_header(response, b"Last-Modified"))

    def page_item(self, url: str, body: bytes, result, *, prepared=None, http_status: int = 200,
                  content_type: str | None = None, etag: str | None = None, last_modified: str | None = None,
                  warnings: list[str] | None = None, expect_prepared: bool = True,
                  stored: PreparedDocument | None = None) -> JobPageItem:
        """One stored version: the raw body, its PreparedDocument (None if preparation failed) and jobs.
        ``stored`` is the stored version's document when the body was read again rather than prepared: it only
        supplies the description, so a re-read job keeps the same description as when it was fetched."""
        warnings = list(warnings or []) + list(result.warnings)
        if prepared is None and expect_prepared:
            warnings.append("preparation failed; see the crawl log")
        jobs = page_jobs(result, prepared or stored)
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
            jobs=[job.model_dump(mode="json", exclude_none=True) for job in jobs],
            parser_key=result.parser_key,
            parser_version=result.parser_version,
            confidence=result.confidence,
            warnings=warnings,
        )


def _header(response, name: bytes) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value else None
