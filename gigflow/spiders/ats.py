"""ats strategy: the public endpoints of Greenhouse, Lever, Recruitee, SmartRecruiters, Workable, Ashby, Workday,
Personio, Teamtailor, BambooHR, Breezy, Pinpoint, Manatal, Jibe and Radancy.

Endpoints and next pages come from the provider modules in ``gigflow.adapters.ats``; only the host is ours to
choose (``ATS_BASE_URLS``, so tests point it at 127.0.0.1). Each listing payload is stored as one version whose
jobs come from the provider's adapter; where listings carry no job text (SmartRecruiters, Workday, BambooHR) each
posting's detail is fetched too. A board whose first page answers 404 or 410 is not retried: the source is quarantined for review with
the reason; a later page that does makes the run incomplete.
"""

from __future__ import annotations

import json

import scrapy

from gigflow.adapters.ats import base_url as ats_base_url
from gigflow.adapters.ats import provider as ats_provider
from gigflow.adapters.common import load_json
from gigflow.adapters.types import NextPage
from gigflow.middlewares.preparation import JOB
from gigflow.spiders.base import SourceSpider

BOARD_MISSING = (404, 410)


class AtsSpider(SourceSpider):
    name = "ats"
    strategy_type = "ats"

    async def start(self):
        settings = self.crawler.settings
        self.provider = ats_provider(self.strategy.provider)
        self.page_size = settings.getint("ATS_PAGE_SIZE")
        self.max_pages = settings.getint("ATS_MAX_PAGES")
        self.base = self.base_url()
        yield self.first_listing_request()

    def base_url(self) -> str:
        return ats_base_url(self.strategy.provider, self.strategy.board_id, self.strategy.region,
                            self.crawler.settings.getdict("ATS_BASE_URLS"))

    @property
    def fetches_details(self) -> bool:
        return self.strategy.provider == "smartrecruiters" or getattr(self.provider, "FETCH_DETAILS", False)

    def first_listing_request(self) -> scrapy.Request:
        board, provider = self.strategy.board_id, self.strategy.provider
        if provider in ("lever", "smartrecruiters"):
            paging = {"skip": 0} if provider == "lever" else {"offset": 0}
            return self.listing_request(self.provider.listing_url(board, self.base, limit=self.page_size, **paging))
        if provider == "workable" and self.crawler.settings.get("ATS_WORKABLE_ENDPOINT") == "v3":
            return self.listing_request(self.provider.jobs_api_url(board, self.base), method="POST", json_body={})
        if hasattr(self.provider, "first_page"):
            first = self.provider.first_page(board, self.base, self.page_size)
            return self.listing_request(first.url, method=first.method, json_body=first.json_body)
        return self.listing_request(self.provider.listing_url(board, self.base))

    def listing_request(self, url: str, page: int = 1, method: str = "GET", json_body: dict | None = None,
                        total: int | None = None):
        kwargs = {}
        if json_body is not None:
            kwargs = {"body": json.dumps(json_body), "headers": {"Content-Type": "application/json"}}
        # Not a job_request: its callback differs, but it is prepared and stored like any job response.
        # `total` is a count only the first page reports (Workday), carried to the pages after it.
        return scrapy.Request(url, method=method, callback=self.parse_listing, errback=self.on_fetch_error,
                              cb_kwargs={"page": page, "total": total},
                              meta={JOB: True, "handle_httpstatus_list": list(BOARD_MISSING),
                                    "gigflow_ats_body": json_body}, **kwargs)

    @property
    def parser_key(self) -> str:
        # The provider names the parser: a test host (127.0.0.1) says nothing about the payload's origin.
        return self.strategy.provider

    def parse_listing(self, response, page: int, total: int | None = None):
        if response.status in BOARD_MISSING:
            self.board_missing(response, page)
            return
        response, result = self.read_listing(response)
        self.crawler.stats.inc_value("gigflow/listing_pages")
        yield self.response_item(response, result)
        if self.fetches_details:
            for job in result.jobs:
                url = self.detail_url(job)
                if url:
                    yield self.job_request(url)
        next_page = result.next_page
        if getattr(self.provider, "PAGING", None) == "post-offset":
            next_page, total = self.next_offset_page(response, result, total)
        if next_page is not None:
            if page >= self.max_pages:
                self.mark_incomplete(f"more listing pages than ATS_MAX_PAGES={self.max_pages}", "cap_reached")
            else:
                yield self.listing_request(next_page.url, page + 1, next_page.method, next_page.json_body, total)

    def detail_url(self, job) -> str | None:
        if self.strategy.provider == "smartrecruiters":
            return self.provider.detail_url(self.strategy.board_id, job.external_id, self.base) if job.external_id else None
        return self.provider.detail_url(self.strategy.board_id, job, self.base)

    def next_offset_page(self, response, result, total: int | None):
        """POSTed offset pages (Workday): the total comes with the first page only and is carried on."""
        if total is None:
            try:
                data = load_json(response.body)
                total = data.get("total") if isinstance(data, dict) and isinstance(data.get("total"), int) else 0
            except ValueError:
                total = 0
        body = response.meta.get("gigflow_ats_body")
        if body is None:  # a replayed 304 or an unexpected request: no page to follow from
            return None, total
        previous = NextPage(url=response.url, method="POST", json_body=body)
        return self.provider.next_offset_page(previous, total, len(result.jobs)), total

    def board_missing(self, response, page: int) -> None:
        """404/410 on the first page: the board is gone (quarantine). On a later page the board answered a moment
        ago: that page is missing, so the run is incomplete and the source keeps its status."""
        if page > 1:
            self.crawler.stats.inc_value("gigflow/ats_page_missing")
            self.mark_incomplete(f"listing page {page} answered {response.status} at {response.url}", "page_missing")
            return
        reason = (f"{self.strategy.provider} board {self.strategy.board_id!r} answered {response.status} at "
                  f"{response.url}; check the board id")
        self.crawler.stats.inc_value("gigflow/ats_board_missing")
        self.mark_incomplete(reason, "board_missing")
        self.context.quarantine(reason)
