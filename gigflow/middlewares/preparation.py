"""Every job response passes through here, so all strategies share exactly one preparation path.

How a spider uses it:

- Mark a request whose response is a job page with ``meta["gigflow_job"] = True`` (``SourceSpider.job_request``
  does). Its response, whatever the format (HTML, text, Markdown, PDF, JSON, XML), is prepared by the
  DocumentPreparer and the PreparedDocument lands in ``response.meta["gigflow_prepared"]``. JSON and XML payloads
  keep their body unchanged for the adapters; their PreparedDocument has format ``json``/``xml``.
- Click captures (the click spider, scrapy-playwright): after clicking an item, put the captured detail HTML
  (the detail region's outer HTML, or the whole page after the click) in ``meta["gigflow_capture_html"]`` as a
  ``str``. The middleware then prepares that capture, not the listing page body, with the click strategy's
  item and detail rules, so the stored Markdown is the prepared detail text.

The site's noise filter is read once per run by the crawl context (``CrawlContext.noise_filter``, through
getCurrentNoiseFilter): it is used only while its ``config_hash`` equals the source's current configuration
hash, since a filter learned for another configuration could remove the wrong regions.
"""

from __future__ import annotations

import logging

from gigflow.context import CrawlContext
from gigflow.documents import DocumentPreparer, PreparedDocument
from gigflow.keys import CAPTURE_HTML, JOB, PREPARED  # noqa: F401  (their names live in gigflow.keys)
from gigflow.noise.events import emit

logger = logging.getLogger(__name__)


class PreparationMiddleware:
    """Downloader middleware: prepares responses of requests marked ``meta["gigflow_job"]``."""

    def __init__(self, preparer: DocumentPreparer, context: CrawlContext):
        self.preparer = preparer
        self.context = context  # the run's strategy and noise filter

    @classmethod
    def from_crawler(cls, crawler):
        return cls(DocumentPreparer.from_settings(crawler.settings), CrawlContext.from_crawler(crawler))

    def process_response(self, request, response, spider=None):
        if not request.meta.get(JOB) or response.status != 200:
            return response
        capture = request.meta.get(CAPTURE_HTML)
        body = capture if isinstance(capture, str) else response.body
        content_type = "text/html; charset=utf-8" if isinstance(capture, str) else \
            response.headers.get("Content-Type", b"").decode("latin-1") or None
        try:
            prepared = self.preparer.prepare(body, response.url, content_type=content_type,
                                           strategy=self.context.strategy,
                                           noise_filter=self.context.noise_filter)
        except Exception as exc:  # a malformed page never crashes a crawl
            logger.warning("preparation failed for %s: %s", response.url, exc)
            prepared = PreparedDocument(markdown="", format="html")
            prepared.report.errors.append(f"preparation failed: {type(exc).__name__}: {exc}")
        for error in prepared.report.errors:
            logger.warning("preparing %s: %s", response.url, error)
        if self.context.noise_filter is not None:
            self._report_noise_filter(prepared, response.url)
        request.meta[PREPARED] = prepared
        return response

    def _report_noise_filter(self, prepared: PreparedDocument, url: str) -> None:
        steps = [step for step in prepared.report.steps if step.rule == "noise-filter"]
        removed = sum(step.action == "removed" for step in steps)
        configuration_id = self.context.configuration_id
        emit("filter_applied", configuration_id, url=url, removed=removed,
             kept=len(steps) - removed, review_requested=prepared.report.review_requested)
        for step in steps:
            if step.action == "retained":
                emit("region_changed", configuration_id, url=url, selector=step.selector, reason=step.reason)
