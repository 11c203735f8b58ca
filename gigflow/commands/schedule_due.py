"""scrapy schedule-due: ask scrapyd to crawl every active source whose next_crawl_at has passed."""

from gigflow.commands import GigflowCommand, table
from gigflow.db import get_pool
from gigflow.politeness.scrapyd import schedule_due


class Command(GigflowCommand):
    def short_desc(self):
        return "Schedule a scrapyd job for every active source that is due (next_crawl_at passed)"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="scrapyd URL (default: the SCRAPYD_URL setting)")
        parser.add_argument("--project", help="scrapyd project (default: the SCRAPYD_PROJECT setting)")
        parser.add_argument("--dry-run", action="store_true", help="list what would be scheduled; change nothing")

    def run(self, args, opts):
        settings = self.settings
        results = schedule_due(get_pool(), opts.url or settings.get("SCRAPYD_URL"),
                               opts.project or settings.get("SCRAPYD_PROJECT"),
                               set(self.crawler_process.spider_loader.list()),
                               settings.getfloat("SCHEDULE_CLAIM_SECONDS"), dry_run=opts.dry_run)
        if not results:
            print("no source is due")
            return
        print(table([r.__dict__ for r in results], ["source_id", "spider", "job_id", "error"]))
        if any(r.error for r in results):
            self.exitcode = 1
