"""scrapy crawl, with gigflow's exit codes: 3 when the source is already being crawled with that strategy, 1
when the run could not be finalized (its close handlers failed), beside Scrapy's 1 for a crawl that failed to
start."""

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError


class Command(ScrapyCrawlCommand):
    def run(self, args, opts):
        if not args:
            raise UsageError()
        if len(args) > 1:
            raise UsageError("running 'scrapy crawl' with more than one spider is not supported")
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
        self.exitcode = getattr(crawler, "gigflow_exitcode", 0) or self.exitcode
