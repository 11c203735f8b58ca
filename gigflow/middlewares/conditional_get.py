"""Conditional GET for job pages: send the stored version's ETag and Last-Modified; a 304 reaches the spider
with the previous version's id in ``meta[NOT_MODIFIED_VERSION]`` and stores no body."""

from __future__ import annotations

from gigflow.context import CrawlContext
from gigflow.middlewares.preparation import JOB

PREVIOUS_VERSION = "gigflow_previous_version"
NOT_MODIFIED_VERSION = "gigflow_not_modified_version"


class ConditionalGetMiddleware:
    def __init__(self, crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self.context = CrawlContext.from_crawler(crawler)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_request(self, request, spider=None):
        if not request.meta.get(JOB) or request.method != "GET" or self.context.source_id is None:
            return None
        if b"If-None-Match" in request.headers or b"If-Modified-Since" in request.headers:
            return None
        row = self.context.latest_validators(request.url)
        if row is None or not (row.etag or row.last_modified):
            return None
        if row.noise_filter != self.context.noise_fingerprint:
            # Its Markdown was prepared with another noise filter: fetch the body again to re-prepare it.
            self.stats.inc_value("gigflow/refetched_for_new_noise_filter")
            return None
        if row.etag:
            request.headers[b"If-None-Match"] = row.etag
        if row.last_modified:
            request.headers[b"If-Modified-Since"] = row.last_modified
        request.meta[PREVIOUS_VERSION] = row.id
        # Let the 304 through HttpErrorMiddleware to the spider's callback.
        request.meta["handle_httpstatus_list"] = [*request.meta.get("handle_httpstatus_list", []), 304]
        return None

    def process_response(self, request, response, spider=None):
        if response.status == 304 and PREVIOUS_VERSION in request.meta:
            request.meta[NOT_MODIFIED_VERSION] = request.meta[PREVIOUS_VERSION]
            self.stats.inc_value("gigflow/not_modified")
        return response
