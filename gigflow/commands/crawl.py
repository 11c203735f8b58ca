"""scrapy crawl, with gigflow's exit codes: 3 when the source is already being crawled with that strategy, 1
when the run could not be finalized (its close handlers failed), beside Scrapy's 1 for a crawl that failed to
start. ``-a sources=ID,ID,...`` crawls several sources in this one process (gigflow.scheduling.batch)."""

import logging

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

logger = logging.getLogger(__name__)


class Command(ScrapyCrawlCommand):
    def run(self, args, opts):
        if not args:
            raise UsageError()
        if len(args) > 1:
            raise UsageError("running 'scrapy crawl' with more than one spider is not supported")
        from gigflow.db import get_pool

        get_pool()  # a database that cannot be reached fails here, in seconds and in one line (gigflow.commands)
        if "sources" in opts.spargs:
            return self.run_batch(args[0], opts)
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
        self.exitcode = getattr(crawler, "gigflow_exitcode", 0) or self.exitcode

    def run_batch(self, spider_name: str, opts) -> None:
        from gigflow.scheduling.batch import SourceBatch, parse_source_ids

        spider_kwargs = dict(opts.spargs)
        if "source" in spider_kwargs:
            raise UsageError("give -a source=ID or -a sources=ID,ID,..., not both")
        try:
            source_ids = parse_source_ids(spider_kwargs.pop("sources"))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        if spider_name not in self.crawler_process.spider_loader.list():
            raise UsageError(f"Spider not found: {spider_name}")
        shared = [uri for uri in self.settings.getdict("FEEDS") if "%(source_id)s" not in str(uri)]
        if shared:  # every crawler would write (or overwrite) the same file
            raise UsageError(f"with -a sources=..., name each source's own output: put %(source_id)s in "
                             f"{', '.join(map(str, shared))} (e.g. -O jobs-%(source_id)s.jsonl)")
        batch = SourceBatch(self.crawler_process, spider_name, source_ids,
                            concurrency=self.settings.getint("CRAWL_CONCURRENT_SOURCES"), spider_kwargs=spider_kwargs)
        batch.start()
        if batch.queue or batch.running:
            self.crawler_process.start()
        batch.release_unstarted()
        logger.info("batch of %s: %s", spider_name, batch.summary())
        self.exitcode = batch.exitcode
