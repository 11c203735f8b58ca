"""scrapy sources import FILE | list | show ID | promote|quarantine|restore ID --reason TEXT |
policy ID --reviewed --note TEXT | repair ID [--apply] | sweep"""

import json

from gigflow.commands import GigflowCommand, UsageError, table
from gigflow.db import get_pool
from gigflow.health.lifecycle import LifecycleSettings, TransitionError, person, promote, quarantine, \
    record_policy_review, restore
from gigflow.health.repair import RepairError, repair_source
from gigflow.health.report import overview, with_health
from gigflow.pipelines.runs import sweep_stale_runs
from gigflow.scheduling.claims import release_dead_claims
from gigflow.sources.loader import SourceFileError, load_source_file
from gigflow.sources.repository import InvalidStoredSourceError, SourceConflictError, UnknownSourceError, \
    import_sources, list_sources
from gigflow.sql import load_sql

TRANSITIONS = {"promote": promote, "quarantine": quarantine, "restore": restore}


class Command(GigflowCommand):
    def syntax(self):
        return ("import FILE | list [--after ID] [--limit N] [--json] | show ID [--json] | "
                "promote|quarantine|restore ID --reason TEXT | policy ID --reviewed --note TEXT | "
                "repair ID [--apply] [--json] | sweep")

    def short_desc(self):
        return ("Import sources (all or nothing), list them with their health, show one, change a status with a "
                "reason, record a policy review, repair a card selector on snapshots, or close dead runs")

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--after", help="list: the page after this source id")
        parser.add_argument("--limit", type=int, help="list: sources per page (default: LISTING_PAGE_SIZE)")
        parser.add_argument("--json", action="store_true", help="list, show, repair: print JSON")
        parser.add_argument("--reason", help="promote, quarantine, restore: why (kept in the history)")
        parser.add_argument("--reviewed", action="store_true", help="policy: the policy/terms review was done")
        parser.add_argument("--note", help="policy: what was reviewed")
        parser.add_argument("--apply", action="store_true",
                            help="repair: save the variant as a new configuration if it qualifies")

    def run(self, args, opts):
        try:
            self.dispatch(args, opts)
        except (UnknownSourceError, TransitionError, RepairError, InvalidStoredSourceError) as exc:
            self.fail(str(exc))

    def dispatch(self, args, opts):
        if args[:1] == ["import"] and len(args) == 2:
            try:
                configs = load_source_file(args[1])
            except SourceFileError as exc:
                return self.fail(str(exc))
            try:
                import_sources(get_pool(), configs)
            except SourceConflictError as exc:
                return self.fail(f"{args[1]}: {exc}")
            print(f"imported {len(configs)} source(s): {', '.join(c.id for c in configs)}")
        elif args == ["list"]:
            limit = opts.limit or self.settings.getint("LISTING_PAGE_SIZE")
            if limit < 1:
                return self.fail("--limit must be at least 1")
            rows = with_health(get_pool(), list_sources(get_pool(), after=opts.after, limit=limit))
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
            self.print_overview(overview(get_pool(), args[1]), opts.json)
        elif args[:1] and args[0] in TRANSITIONS and len(args) == 2:
            before, after = TRANSITIONS[args[0]](get_pool(), args[1], opts.reason)
            print(f"source {args[1]}: {before} -> {after} ({opts.reason.strip()})")
        elif args[:1] == ["policy"] and len(args) == 2:
            if not opts.reviewed:
                return self.fail("policy: say --reviewed (a person's decision) and --note TEXT")
            status = record_policy_review(get_pool(), args[1], opts.note, LifecycleSettings.from_settings(self.settings))
            print(f"source {args[1]}: policy review recorded"
                  + (f"; robots.txt allows its listing: now {status}" if status else
                     "; it starts its trial once robots.txt is known to allow its listing (after a crawl)"))
        elif args[:1] == ["repair"] and len(args) == 2:
            report = repair_source(get_pool(), args[1], min_reproduced=self.settings.getfloat("REPAIR_MIN_REPRODUCED"),
                                   apply=opts.apply, actor=person())
            self.print_repair(report, opts.json)
        elif args == ["sweep"]:
            closed = sweep_stale_runs(get_pool(), self.settings.getfloat("CRAWL_STALE_SECONDS"))
            for run in closed:
                print(f"run {run['id']}: owner host {run['owner_host']} pid {run['owner_pid']} is gone; "
                      f"closed as incomplete:abandoned")
            print(f"{len(closed)} abandoned run(s) closed")
            released = release_dead_claims(get_pool())
            for source_id in released:
                print(f"source {source_id}: its claim's holder is gone; released for the next schedule-due pass")
            print(f"{len(released)} dead claim(s) released")
        else:
            raise UsageError()

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
        with get_pool().connection() as conn:
            rows = conn.execute(load_sql("gigflow.commands", "mailbox_failures.sql"),
                                {"max_attempts": self.settings.getint("MAILBOX_MAX_ATTEMPTS")}).fetchall()
        if rows:
            for row in rows:
                row["state"] = "given up" if row["given_up"] else "will retry"
            print("\nmailbox messages that failed to read:")
            print(table(rows, ["source_id", "message_key", "attempts", "state", "error"],
                        {"message_key": 60, "error": 80}))
