"""scrapy crawl, with gigflow's exit codes (gigflow.runs.exits, read off the run's ledger): 3 when the source is
already being crawled with that strategy, 4 when the run read nothing, 1 when the run could not be finalized, beside
Scrapy's 1 for a crawl that failed to start. ``-a sources=ID,ID,...`` crawls several sources in this one process (gigflow.scheduling.batch)."""

import logging

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from gigflow.commands import checked_run, print_error
from gigflow.runs.ledger import run_ledger

logger = logging.getLogger(__name__)


class Command(ScrapyCrawlCommand):
    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--force", action="store_true",
                            help="crawl a candidate or quarantined source by hand anyway (e.g. to try a repair)")

    def fail(self, message: str, code: int = 2) -> None:
        print_error(message)  # what every gigflow command prints
        self.exitcode = code

    @checked_run  # the settings check every gigflow command makes (this one extends Scrapy's crawl instead)
    def run(self, args, opts):
        if not args:
            raise UsageError()
        if len(args) > 1:
            raise UsageError("running 'scrapy crawl' with more than one spider is not supported")
        strategies = self.crawler_process.spider_loader.list()
        if args[0] not in strategies:
            return self.fail(f"no strategy {args[0]!r}; the strategies are {', '.join(sorted(strategies))} "
                             f"(e.g. scrapy crawl {sorted(strategies)[0]} -a source=ID)")
        from gigflow.db import pool_from_settings

        # the DATABASE_URL setting's database; one that cannot be reached fails here, in seconds and in one line
        # (gigflow.commands)
        pool = pool_from_settings(self.settings)
        if "sources" in opts.spargs:
            return self.run_batch(args[0], opts)
        if opts.force:
            self.settings.set("CRAWL_FORCE", True, priority="cmdline")
        if "source" in opts.spargs and not opts.force:
            refusal = self.refusal(pool, opts.spargs["source"], args[0])
            if refusal:
                return self.fail(refusal)
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **opts.spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed:
            self.exitcode = 1
        self.exitcode = run_ledger(crawler).exit_code or self.exitcode

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

    @staticmethod
    def refusal(pool, source_id: str, strategy: str) -> str | None:
        """Why a crawl by hand of this source is refused without --force (None: go ahead). A candidate has not
        been reviewed; a quarantined source failed for a reason a crawl would only repeat (and its failed run
        would count as drift)."""
        from gigflow.health.lifecycle import source_state
        from gigflow.sources.repository import UnknownSourceError

        try:
            state = source_state(pool, source_id)
        except UnknownSourceError as exc:
            return str(exc)
        if strategy not in {s.get("type") for s in state.strategies}:
            return None  # the spider names what is missing
        if state.status == "candidate":
            return (f"source {source_id!r} is a candidate (not reviewed): record its policy review with `scrapy "
                    f"sources policy {source_id} --reviewed --note TEXT`, try it with `scrapy sources try`, or add "
                    f"--force")
        if state.status == "quarantined":
            return (f"source {source_id!r} is quarantined ({state.status_reason or 'no reason recorded'}): "
                    f"repair it and `scrapy sources restore {source_id} --reason TEXT`, or add --force")
        return None
