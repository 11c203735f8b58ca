"""scrapy sources import FILE | scrapy sources list | scrapy sources sweep"""

from gigflow.commands import GigflowCommand, UsageError, table
from gigflow.db import get_pool
from gigflow.pipelines.runs import sweep_stale_runs
from gigflow.sources.loader import SourceFileError, load_source_file
from gigflow.sources.repository import SourceConflictError, import_sources, list_sources
from gigflow.sql import load_sql


class Command(GigflowCommand):
    def syntax(self):
        return "import FILE | list [--after ID] [--limit N] | sweep"

    def short_desc(self):
        return "Import sources from a YAML/JSON file (all or nothing), list them, or close runs whose owner died"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--after", help="list: the page after this source id")
        parser.add_argument("--limit", type=int, help="list: sources per page (default: LISTING_PAGE_SIZE)")

    def run(self, args, opts):
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
            rows = list_sources(get_pool(), after=opts.after, limit=limit)
            print(table(rows, ["id", "company", "status", "jobs", "last_crawl", "url"]) if rows else "no sources")
            if len(rows) == limit:
                print(f"\nnext page: scrapy sources list --after {rows[-1]['id']}")
            self.print_mailbox_failures()
        elif args == ["sweep"]:
            closed = sweep_stale_runs(get_pool(), self.settings.getfloat("CRAWL_STALE_SECONDS"))
            for run in closed:
                print(f"run {run['id']}: owner host {run['owner_host']} pid {run['owner_pid']} is gone; "
                      f"closed as incomplete:abandoned")
            print(f"{len(closed)} abandoned run(s) closed")
        else:
            raise UsageError()

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
