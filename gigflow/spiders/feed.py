"""feed strategy: RSS, Atom, XML job feeds and JSON Feeds; each entry becomes a job through the feed adapter.

With ``follow_links: true`` an entry whose link stays on the feed's site is followed, and the job page (prepared
and read like any job page) stands for the entry, so each vacancy stays one job; a page that yields no job keeps
the entry's own job. Entries linking elsewhere are stored from the feed.
"""

from __future__ import annotations

import scrapy

from gigflow.middlewares.preparation import JOB
from gigflow.politeness.keys import registrable_domain
from gigflow.spiders.base import SourceSpider

ENTRY_JOB = "gigflow_feed_entry"


class FeedSpider(SourceSpider):
    name = "feed"
    strategy_type = "feed"

    async def start(self):
        for url in self.strategy.feed_urls:
            # The feed is stored and prepared like a job response; its callback reads the entries.
            yield scrapy.Request(url, callback=self.parse_feed, errback=self.on_fetch_error, meta={JOB: True})

    def parse_feed(self, response):
        response, result = self.read_listing(response)
        self.count_listing(response.url, len(result.jobs))
        self.crawler.stats.inc_value("gigflow/feeds")
        self.crawler.stats.inc_value("gigflow/feed_entries", len(result.jobs))
        followed, kept = [], []
        domain = registrable_domain(response.url)
        for job in result.jobs:
            if self.strategy.follow_links and job.url and registrable_domain(job.url) == domain:
                followed.append(job)
            else:
                kept.append(job)
        yield self.response_item(response, result.model_copy(update={"jobs": kept}))
        for job in followed:
            entry = {"job": job.model_dump(mode="json", exclude_none=True), "parser_key": result.parser_key,
                     "parser_version": result.parser_version, "confidence": result.confidence}
            yield self.job_request(job.url, meta={ENTRY_JOB: entry})
        self.crawler.stats.inc_value("gigflow/feed_links_followed", len(followed))

    def parse_job(self, response):
        response = self.replay_not_modified(response)  # a 304 is read from its stored body
        if response.status == 304:
            yield from super().parse_job(response)
            return
        item = self.response_item(response)
        entry = response.meta.get(ENTRY_JOB)
        if entry and not item["jobs"]:
            # The page said nothing we could read (a script shell, say): the feed entry is the job.
            item.update(jobs=[entry["job"]], parser_key=entry["parser_key"], parser_version=entry["parser_version"],
                        confidence=entry["confidence"])
            item["warnings"].append("job page yielded no job; the feed entry was kept")
            self.crawler.stats.inc_value("gigflow/feed_entries_kept")
        yield item
