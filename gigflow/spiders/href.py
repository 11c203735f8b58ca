"""href strategy: listing pages whose cards link to job pages."""

from __future__ import annotations

from urllib.parse import urldefrag, urlsplit

import scrapy
from scrapy.http import HtmlResponse

from gigflow.documents.rendering import script_rendered
from gigflow.health import LISTING_PAGE, SCRIPT_RENDERED
from gigflow.politeness.keys import registrable_domain
from gigflow.sources.job_paths import JOB_WORDS
from gigflow.spiders.base import SourceSpider


class HrefSpider(SourceSpider):
    name = "href"
    strategy_type = "href"

    async def start(self):
        self.max_job_urls = self.crawler.settings.getint("HREF_MAX_JOB_URLS")
        self.job_urls: set[str] = set()
        self.capped = False
        for url in self.strategy.listing_urls:
            yield self.listing_request(url, page=1)

    def _priority(self, url: str) -> int:
        """With no job_url_patterns every same-site link is followed: links whose path names jobs ("/jobs/",
        "/stellen/") first, so a capped run (`sources try --pages N`) reads postings before a tag cloud."""
        if self.strategy.job_url_patterns:
            return 0
        return 1 if JOB_WORDS.search(urlsplit(url).path) else 0

    def listing_request(self, url: str, page: int):
        return scrapy.Request(url, callback=self.parse_listing, errback=self.on_fetch_error, cb_kwargs={"page": page},
                              meta={LISTING_PAGE: page}, dont_filter=page == 1)

    def parse_listing(self, response, page: int):
        strategy = self.strategy
        if not isinstance(response, HtmlResponse):  # an image, a PDF, JSON: not a listing we can read
            content_type = (response.headers.get(b"Content-Type") or b"none").decode("latin-1")
            self.mark_incomplete(f"listing {response.url} is not HTML (Content-Type {content_type})", "content_type")
            return
        domain = registrable_domain(response.url)
        try:
            scope = response.css(strategy.card_selector) if strategy.card_selector else [response]
        except Exception as exc:  # checked at import; a selector parsel still refuses must not pass as empty
            self.mark_incomplete(f"card selector {strategy.card_selector!r} failed on {response.url}: {exc}",
                                 "selector_error")
            return
        seen: set[str] = set()
        job_links = 0
        for node in scope:
            for href in node.css("a::attr(href)").getall():
                try:
                    url = urldefrag(response.urljoin(href.strip())).url
                    if url in seen or url == urldefrag(response.url).url or not url.startswith(("http://", "https://")):
                        continue
                    seen.add(url)
                    same_site = registrable_domain(url) == domain
                except ValueError:  # "http://[oops/": no address a browser could follow either; the rest still is
                    self.crawler.stats.inc_value("gigflow/unreadable_links")
                    continue
                if not same_site:
                    continue
                if self.matches(url, strategy.job_url_patterns, strategy.exclude_patterns):
                    job_links += 1
                    if url in self.job_urls:
                        continue
                    if len(self.job_urls) >= self.max_job_urls:
                        if not self.capped:
                            self.capped = True
                            self.mark_incomplete(f"more job links than HREF_MAX_JOB_URLS={self.max_job_urls}",
                                                 "cap_reached")
                        continue
                    self.job_urls.add(url)
                    yield self.job_request(url, priority=self._priority(url))
        if page == 1:
            self.count_listing(response.url, job_links)
            rendered = script_rendered(response.body) if job_links == 0 else None
            if rendered:
                self.crawler.stats.set_value(SCRIPT_RENDERED, response.url)
                self.logger.warning("listing %s gave no job link and looks rendered by JavaScript (%s): use the "
                                    "click strategy (try it: scrapy sources try URL)", response.url, rendered)
        self.crawler.stats.inc_value("gigflow/listing_pages")
        self.crawler.stats.inc_value("gigflow/job_links", len(seen))
        if strategy.next_page_selector and page < strategy.max_listing_pages and not self.capped:
            next_href = response.css(strategy.next_page_selector).css("::attr(href)").get()
            if next_href:
                yield self.listing_request(response.urljoin(next_href), page=page + 1)
