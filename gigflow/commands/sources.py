"""scrapy sources import FILE | try FILE|URL [--pages N] | list | show ID | promote|quarantine|restore ID
--reason TEXT | policy ID --reviewed --note TEXT | repair ID [--apply] | sweep | discover URL [--id ID]
[--company NAME] [--json]"""

import json
import sys
from dataclasses import asdict

from gigflow.commands import GigflowCommand, UsageError, cannot_write, table

# Each subcommand imports what it uses when it runs: scrapy imports every command module at start-up, whichever
# command runs, and health, repair and the adapters behind them cost every `scrapy` process a few tenths of a second.
TRANSITIONS = ("promote", "quarantine", "restore")


def _refusals() -> tuple[type[Exception], ...]:
    """The errors a subcommand reports in one line (a wrong id, a refused transition, a repair that cannot run)."""
    from gigflow.health.lifecycle import TransitionError
    from gigflow.health.repair import RepairError
    from gigflow.sources.repository import InvalidStoredSourceError, UnknownSourceError

    return UnknownSourceError, TransitionError, RepairError, InvalidStoredSourceError


class Command(GigflowCommand):
    def syntax(self):
        return ("import FILE | try FILE|URL [--pages N] [--json] | list [--after ID] [--limit N] [--json] | show ID [--json] | "
                "promote|quarantine|restore ID --reason TEXT | policy ID --reviewed --note TEXT | "
                "repair ID [--apply] [--json] | sweep | discover URL [--id ID] [--company NAME] [--json]")

    def short_desc(self):
        return ("Import sources (all or nothing), try one once in a scratch database, list them with their health, "
                "show one, change a status with a reason, record a policy review, repair a card selector on "
                "snapshots, close dead runs, or propose a source for a career page (discover)")

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--after", help="list: the page after this source id")
        parser.add_argument("--limit", type=int, help="list: sources per page (default: LISTING_PAGE_SIZE)")
        parser.add_argument("--json", action="store_true", help="list, show, repair, try: print JSON")
        parser.add_argument("--pages", type=int, default=5, help="try: job pages to read at most (default 5)")
        parser.add_argument("--out", help="try: write the suggested source file here")
        parser.add_argument("--id", dest="source_id",
                            help="try URL, discover: the proposed source's id (by default from the host)")
        parser.add_argument("--company", help="try URL, discover: the proposed source's company (default: the host)")
        parser.add_argument("--reason", help="promote, quarantine, restore: why (kept in the history)")
        parser.add_argument("--reviewed", action="store_true", help="policy: the policy/terms review was done")
        parser.add_argument("--note", help="policy: what was reviewed")
        parser.add_argument("--apply", action="store_true",
                            help="repair: save the variant as a new configuration if it qualifies")

    def crawls(self, args):
        return args[:1] in (["try"], ["discover"])  # they crawl

    def run(self, args, opts):
        try:
            self.dispatch(args, opts)
        except (LookupError, ValueError) as exc:
            if not isinstance(exc, _refusals()):
                raise
            self.fail(str(exc))

    def dispatch(self, args, opts):
        if args[:1] == ["import"] and len(args) == 2:
            from gigflow.sources.loader import SourceFileError, load_source_file
            from gigflow.sources.repository import SourceConflictError, import_sources

            try:
                configs = load_source_file(args[1], self.settings.getint("SOURCES_FILE_MAX_BYTES"),
                                           self.settings.getint("SOURCES_FILE_MAX_NODES"))
            except SourceFileError as exc:
                return self.fail(str(exc))
            try:
                import_sources(self.pool, configs)
            except SourceConflictError as exc:
                return self.fail(f"{args[1]}: {exc}")
            print(f"imported {len(configs)} source(s): {', '.join(c.id for c in configs)}")
        elif args[:1] == ["try"] and len(args) == 2:
            from gigflow.commands.sources_try import TryError, render, try_source

            if not 1 <= opts.pages <= 50:
                return self.fail("--pages must be between 1 and 50")
            unwritable = opts.out and cannot_write(opts.out)
            if unwritable:  # before the try, which reads pages: its result would be lost
                return self.fail(f"--out {opts.out}: {unwritable}")
            try:
                result = try_source(self.crawler_process, self.settings, args[1], opts.pages,
                                    source_id=opts.source_id, company=opts.company)
            except TryError as exc:
                return self.fail(str(exc))
            print(json.dumps(result, default=str, indent=1) if opts.json else render(result))
            if opts.out:
                import yaml

                try:
                    with open(opts.out, "w", encoding="utf-8") as out:
                        yaml.safe_dump(result["source_file"], out, sort_keys=False, allow_unicode=True)
                except OSError as exc:  # the source file is on stdout above: nothing is lost
                    return self.fail(f"--out {opts.out}: cannot write it: {exc.strerror or type(exc).__name__}")
                print(f"wrote {opts.out}", file=sys.stderr)
        elif args == ["list"]:
            from gigflow.health.report import with_health
            from gigflow.sources.repository import list_sources

            limit = opts.limit or self.settings.getint("LISTING_PAGE_SIZE")
            if limit < 1:
                return self.fail("--limit must be at least 1")
            # with_health adds its columns to each row: the page as dicts (printed or dumped as JSON)
            rows = with_health(self.pool, [asdict(row) for row in list_sources(self.pool, after=opts.after,
                                                                               limit=limit)])
            if opts.json:
                print(json.dumps(rows, default=str, indent=1))
                return
            print(table(rows, ["id", "company", "status", "health", "last_outcome", "status_reason", "jobs",
                               "configuration_id", "last_crawl"], {"status_reason": 50, "health": 40})
                  if rows else "no sources")
            if len(rows) == limit:
                print(f"\nnext page: scrapy sources list --after {rows[-1]['id']}")
            self.print_mailbox_failures()
        elif args[:1] == ["show"] and len(args) == 2:
            from gigflow.health.report import overview

            self.print_overview(overview(self.pool, args[1]), opts.json)
        elif args[:1] and args[0] in TRANSITIONS and len(args) == 2:
            from gigflow.health.lifecycle import promote, quarantine, restore

            transition = {"promote": promote, "quarantine": quarantine, "restore": restore}[args[0]]
            before, after = transition(self.pool, args[1], opts.reason)
            print(f"source {args[1]}: {before} -> {after} ({opts.reason.strip()})")
        elif args[:1] == ["policy"] and len(args) == 2:
            if not opts.reviewed:
                return self.fail("policy: say --reviewed (a person's decision) and --note TEXT")
            from gigflow.health.lifecycle import LifecycleSettings, record_policy_review
            from gigflow.maintenance.linkcheck import make_fetcher

            status, problems = record_policy_review(self.pool, args[1], opts.note,
                                                    LifecycleSettings.from_settings(self.settings),
                                                    make_fetcher(self.pool, self.settings))
            for origin, why in problems.items():
                print(f"robots.txt of {origin} could not be read: {why}")
            print(f"source {args[1]}: policy review recorded"
                  + (f"; robots.txt allows its listing: now {status}" if status else
                     "; still candidate: robots.txt does not allow its listing, or could not be read (see above); "
                     f"check `scrapy sources show {args[1]}`, then `scrapy sources promote {args[1]} --reason TEXT`"))
        elif args[:1] == ["repair"] and len(args) == 2:
            from gigflow.health.lifecycle import person
            from gigflow.health.repair import repair_source

            report = repair_source(self.pool, args[1], min_reproduced=self.settings.getfloat("REPAIR_MIN_REPRODUCED"),
                                   apply=opts.apply, actor=person())
            self.print_repair(report, opts.json)
        elif args[:1] == ["discover"] and len(args) == 2:
            self.discover(args[1], opts)
        elif args == ["sweep"]:
            from gigflow.runs.recovery import sweep_stale_runs
            from gigflow.scheduling.claims import release_dead_claims

            closed = sweep_stale_runs(self.pool, self.settings.getfloat("CRAWL_STALE_SECONDS"))
            for run in closed:
                print(f"run {run.id}: owner host {run.owner_host} pid {run.owner_pid} is gone; "
                      f"closed as incomplete:abandoned")
            print(f"{len(closed)} abandoned run(s) closed")
            released = release_dead_claims(self.pool)
            for source_id in released:
                print(f"source {source_id}: its claim's holder is gone; released for the next schedule-due pass")
            print(f"{len(released)} dead claim(s) released")
        else:
            raise UsageError()

    def discover(self, url: str, opts) -> None:
        """One polite, guarded fetch of the page (the crawl's guard, robots.txt and limiter), then a proposal."""
        from gigflow.sources.config import checked_http_url
        from gigflow.sources.discover import propose_source
        from gigflow.spiders.discover import DiscoverSpider

        try:
            url = checked_http_url(url)
        except ValueError as exc:
            return self.fail(f"discover: {exc}")
        crawler = self.crawler_process.create_crawler(DiscoverSpider)
        self.crawler_process.crawl(crawler, url=url)
        self.crawler_process.start()
        spider = crawler.spider
        fetched = spider.fetched if spider is not None else None
        if fetched is None or fetched["status"] >= 400:
            why = (spider.failure if spider is not None and spider.failure else
                   f"it answered {fetched['status']}" if fetched else "it was not fetched (robots.txt or the guard)")
            return self.fail(f"discover: {url}: {why}")
        proposal = propose_source(fetched["body"], fetched["url"], company=opts.company, source_id=opts.source_id)
        if opts.json:
            print(json.dumps({"source": proposal.source, "strategy": proposal.strategy,
                              "confidence": proposal.confidence, "reasons": proposal.reasons,
                              "evidence": proposal.evidence,
                              "boards": [{"provider": f.provider, "board": f.board, "confidence": f.confidence,
                                          "supported": f.supported, "evidence": f.evidence}
                                         for f in proposal.findings[:5]]}, indent=1))
            return
        import yaml

        print(f"# {proposal.strategy} strategy proposed for {fetched['url']} (confidence {proposal.confidence})")
        for reason in proposal.reasons:
            print(f"# - {reason}")
        for link in proposal.evidence:
            print(f"#   shown by {link}")
        print(yaml.safe_dump({"sources": [proposal.source]}, sort_keys=False, allow_unicode=True), end="")

    @staticmethod
    def print_overview(view: dict, as_json: bool) -> None:
        if as_json:
            print(json.dumps(view, default=str, indent=1))
            return
        policy = view["policy"]
        print(f"source {view['id']}: {view['status']}" + (f" ({view['reason']})" if view["reason"] else ""))
        print(f"configuration {view['configuration_id']}; next crawl {view['next_crawl_at'] or 'not scheduled'}")
        print(f"policy review: {policy['reviewed_at'] or 'none'}"
              + (f" by {policy['by']}: {policy['note']}" if policy["reviewed_at"] else ""))
        print("\nrecent runs:")
        rows = [{"run": r["id"], "spider": r["spider"], "outcome": r["outcome"], "jobs": r["health"].get("jobs"),
                 "confidence": r["health"].get("mean_confidence"),
                 "statuses": r["health"].get("status_codes"), "no_job_pages": r["health"].get("pages_without_job"),
                 "drift": "; ".join(d["reason"] for d in r["drift"])} for r in view["runs"]]
        print(table(rows, ["run", "spider", "outcome", "jobs", "confidence", "statuses", "no_job_pages", "drift"],
                    {"drift": 90}) if rows else "  none")
        for run in view["runs"][:1]:
            for page in run["health"].get("without_job", [])[:5]:
                print(f"  no job on {page['url']}: {page['reason']}")
            if run.get("script_rendered"):
                print(f"  hint: listing {run['script_rendered']} gave no job link and looks rendered by JavaScript: "
                      f"use the click strategy (try it first: scrapy sources try FILE)")
        hint = view.get("ats_hint")
        if hint:
            print(f"\nATS hint: the jobs are on the {hint['provider']} board {hint['board']!r} ({hint['links']} links, "
                  f"e.g. {hint['example']}); an ats strategy reads it directly:\n"
                  f"  {{type: ats, provider: {hint['provider']}, board_id: {hint['board']}}}")
        print("\nstatus history:")
        print(table(view["history"], ["at", "from_status", "to_status", "actor", "reason"], {"reason": 90})
              if view["history"] else "  none")

    @staticmethod
    def print_repair(report: dict, as_json: bool) -> None:
        if as_json:
            print(json.dumps(report, default=str, indent=1))
            return
        print(f"source {report['source']}: card selector {report['configured']!r}; reproducing "
              f"{report['target_links']} job links of run {report['target_run']} on "
              f"{len(report['snapshots'])} listing snapshot(s) of run {report['snapshot_run']}")
        configured = report["configured_result"]
        if configured:
            print(f"the configured selector reproduces {configured['reproduced']:.0%} on the snapshot")
        print(table(report["variants"], ["selector", "origin", "reproduced", "precision", "links", "cards",
                                         "pages_matched"]))
        print(f"\n{report['verdict']}" + ("; applied as a new configuration" if report["applied"] else ""))

    def print_mailbox_failures(self):
        from gigflow.store import mailbox_failures as mailbox

        with self.pool.connection() as conn:
            failures = mailbox.all_failures(conn, self.settings.getint("MAILBOX_MAX_ATTEMPTS"))
        rows = [{**asdict(failure), "state": "given up" if failure.given_up else "will retry"} for failure in failures]
        if rows:
            print("\nmailbox messages that failed to read:")
            print(table(rows, ["source_id", "message_key", "attempts", "state", "error"],
                        {"message_key": 60, "error": 80}))
