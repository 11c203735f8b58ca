"""scrapy db upgrade | url | status | prune [--dry-run] [--days N]"""

from gigflow.commands import GigflowCommand, UsageError
from gigflow.db import database_url, get_pool
from gigflow.db.migrate import migrations, upgrade
from gigflow.store import retention

ACTIONS = ("upgrade", "url", "status", "prune")
MAX_DAYS = 100_000  # beyond this an interval overflows; nothing is that old


class Command(GigflowCommand):
    def syntax(self):
        return "upgrade|url|status|prune [--dry-run] [--days N]"

    def short_desc(self):
        return "Apply migrations, print the database URL, show applied migrations, or prune old versions"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--dry-run", action="store_true", help="prune: count what would go, delete nothing")
        parser.add_argument("--days", type=float, default=None,
                            help="prune: versions not fetched for this many days (default VERSION_RETENTION_DAYS)")

    def run(self, args, opts):
        if len(args) != 1 or args[0] not in ACTIONS:
            raise UsageError()
        if args[0] == "url":
            print(database_url())
            return
        if args[0] == "prune":
            self._prune(opts)
            return
        pool = get_pool(migrate=False)
        if args[0] == "upgrade":
            applied = upgrade(pool)
            print(f"applied migrations: {applied}" if applied else "database is up to date")
            return
        with pool.connection() as conn:
            exists = conn.execute("SELECT to_regclass('schema_migrations') AS t").fetchone()["t"]
            done = {r["version"] for r in conn.execute("SELECT version FROM schema_migrations")} if exists else set()
        for version, name, _ in migrations():
            print(f"{version:04d} {name}: {'applied' if version in done else 'pending'}")

    def _prune(self, opts):
        try:
            days = opts.days if opts.days is not None else self.settings.getfloat("VERSION_RETENTION_DAYS")
        except ValueError as exc:
            raise UsageError(f"VERSION_RETENTION_DAYS must be a number of days: {exc}") from None
        if not 0 <= days <= MAX_DAYS:  # also NaN
            raise UsageError(f"--days must be a number of days >= 0 (and at most {MAX_DAYS}), got {days}")
        if days == 0:
            print("VERSION_RETENTION_DAYS is 0: every version is kept")
            return
        counts = retention.prune(get_pool(), days, dry_run=opts.dry_run,
                                 markdown_dir=self.settings.get("MARKDOWN_DIR", ""))
        verb = "would delete" if opts.dry_run else "deleted"
        print(f"{verb} {counts['versions']} version(s) not fetched for {days:g} day(s) and "
              f"{counts['bodies']} unreferenced bod(ies), {counts['bytes']} bytes, and {counts['markdowns']} Markdown "
              f"document(s) and {counts['files']} Markdown file(s)")
        run_days = self.settings.getfloat("RUN_RETENTION_DAYS")
        runs = retention.prune_runs(get_pool(), run_days, self.settings.getint("RUN_RETENTION_KEEP"),
                                    dry_run=opts.dry_run)
        print(f"{verb} {runs} crawl run(s) (with their health rows) finished more than {run_days:g} day(s) ago"
              if run_days > 0 else "RUN_RETENTION_DAYS is 0: every crawl run is kept")
