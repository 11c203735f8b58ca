"""ats strategy: the public JSON endpoints of Greenhouse, Lever, Recruitee, SmartRecruiters and Workable.

Endpoints and next pages come from the provider modules in ``gigflow.adapters.ats``; only the host is ours to
choose (``ATS_BASE_URLS``, so tests point it at 127.0.0.1). Each listing payload is stored as one version whose
jobs come from the provider's adapter; SmartRecruiters listings carry no job text, so each posting's detail is
fetched too. A board whose first page answers 404 or 410 is not retried: the source is quarantined for review with
the reason; a later page that does makes the run incomplete.
"""

from __future__ import annotations

import json

import scrapy

from gigflow.adapters.ats import base_url as ats_base_url
from gigflow.adapters.ats import provider as ats_provider
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

    def first_listing_request(self) -> scrapy.Request:
        board, provider = self.strategy.board_id, self.strategy.provider
        if provider in ("lever", "smartrecruiters"):
            paging = {"skip": 0} if provider == "lever" else {"offset": 0}
            return self.listing_request(self.provider.listing_url(board, self.base, limit=self.page_size, **paging))
        if provider == "workable" and self.crawler.settings.get("ATS_WORKABLE_ENDPOINT") == "v3":
            return self.listing_request(self.provider.jobs_api_url(board, self.base), method="POST", json_body={})
        return self.listing_request(self.provider.listing_url(board, self.base))

    def listing_request(self, url: str, page: int = 1, method: str = "GET", json_body: dict | None = None):
        kwargs = {}
        if json_body is not None:
            kwargs = {"body": json.dumps(json_body), "headers": {"Content-Type": "application/json"}}
        # Not a job_request: its callback differs, but it is prepared and stored like any job response.
        return scrapy.Request(url, method=method, callback=self.parse_listing, errback=self.on_fetch_error,
                              cb_kwargs={"page": page}, meta={JOB: True, "handle_httpstatus_list": list(BOARD_MISSING)},
                              **kwargs)

    @property
    def parser_key(self) -> str:
        # The provider names the parser: a test host (127.0.0.1) says nothing about the payload's origin.
        return self.strategy.provider

    def parse_listing(self, response, page: int):
        if response.status in BOARD_MISSING:
            self.board_missing(response, page)
            return
        response, result = self.read_listing(response)
        self.crawler.stats.inc_value("gigflow/listing_pages")
        yield self.response_item(response, result)
        if self.strategy.provider == "smartrecruiters":
            for job in result.jobs:
                if job.external_id:
                    yield self.job_request(self.provider.detail_url(self.strategy.board_id, job.external_id, self.base))
        next_page = result.next_page
        if next_page is not None:
            if page >= self.max_pages:
                self.mark_incomplete(f"more listing pages than ATS_MAX_PAGES={self.max_pages}", "cap_reached")
            else:
                yield self.listing_request(next_page.url, page + 1, next_page.method, next_page.json_body)

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
