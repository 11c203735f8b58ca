"""scrapy db upgrade | url | status | prune [--dry-run] [--days N] | backup [--key-file F] [--keep N] [--dir D]
| restore FILE [--key-file F] [--to URL]"""

from gigflow.commands import GigflowCommand, UsageError
from gigflow.db import pool_from_settings
from gigflow.db.migrate import migrations, upgrade
from gigflow.store import retention

ACTIONS = ("upgrade", "url", "status", "prune", "backup", "restore")
MAX_DAYS = 100_000  # beyond this an interval overflows; nothing is that old


class Command(GigflowCommand):
    def syntax(self):
        return ("upgrade|url|status|prune [--dry-run] [--days N]|backup [--key-file F] [--keep N] [--dir D]|"
                "restore FILE [--key-file F] [--to URL]")

    def short_desc(self):
        return ("Apply migrations, print the database URL, show applied migrations, prune old versions, back up or "
                "restore")

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--dry-run", action="store_true", help="prune: count what would go, delete nothing")
        parser.add_argument("--days", type=float, default=None,
                            help="prune: versions not fetched for this many days (default VERSION_RETENTION_DAYS)")
        parser.add_argument("--key-file", default=None, help="backup/restore: encrypt/decrypt with this key file")
        parser.add_argument("--keep", type=int, default=None,
                            help="backup: keep the newest N backups (default BACKUP_KEEP; 0 keeps all)")
        parser.add_argument("--dir", default=None, help="backup: folder (default BACKUP_DIR, else .gigflow/backups)")
        parser.add_argument("--to", default=None,
                            help="restore: URL of the empty database to restore into (default: the configured one)")

    def run(self, args, opts):
        if args[:1] == ["restore"] and len(args) == 2:
            return self._restore(args[1], opts)
        if len(args) != 1 or args[0] not in ACTIONS or args[0] == "restore":
            raise UsageError()
        if args[0] == "backup":
            return self._backup(opts)
        if args[0] == "url":
            print(self.database_url)
            return
        if args[0] == "prune":
            self._prune(opts)
            return
        pool = pool_from_settings(self.settings, migrate=False)
        if args[0] == "upgrade":
            from gigflow.store.versions import migrate_markdown_files

            applied = upgrade(pool)
            print(f"applied migrations: {applied}" if applied else "database is up to date")
            copied = migrate_markdown_files(pool, self.settings.get("MARKDOWN_DIR", ""))
            if copied:
                print(f"copied {copied} Markdown file(s) of the old shared folder into this home")
            return
        from gigflow.db import queries

        with pool.connection() as conn:
            done = queries.applied_migrations(conn) if queries.has_schema_migrations(conn) else set()
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
        counts = retention.prune(self.pool, days, dry_run=opts.dry_run,
                                 markdown_dir=self.settings.get("MARKDOWN_DIR", ""))
        verb = "would delete" if opts.dry_run else "deleted"
        print(f"{verb} {counts.versions} version(s) not fetched for {days:g} day(s) and "
              f"{counts.bodies} unreferenced bod(ies), {counts.bytes} bytes, and {counts.markdowns} Markdown "
              f"document(s) and {counts.files} Markdown file(s)")
        run_days = self.settings.getfloat("RUN_RETENTION_DAYS")
        runs = retention.prune_runs(self.pool, run_days, self.settings.getint("RUN_RETENTION_KEEP"),
                                    dry_run=opts.dry_run)
        print(f"{verb} {runs} crawl run(s) (with their health rows) finished more than {run_days:g} day(s) ago"
              if run_days > 0 else "RUN_RETENTION_DAYS is 0: every crawl run is kept")

    def _backup(self, opts):
        from pathlib import Path

        from gigflow.db.backup import BackupError, backup, default_folder

        keep = opts.keep if opts.keep is not None else self.settings.getint("BACKUP_KEEP")
        if keep < 0:
            raise UsageError(f"--keep must be 0 (keep all) or more, got {keep}")
        try:
            done = backup(self.database_url, Path(opts.dir) if opts.dir else default_folder(self.settings),
                          key_file=Path(opts.key_file) if opts.key_file else None, keep=keep)
        except BackupError as exc:
            return self.fail(str(exc))
        print(f"backup {done['file']} ({done['bytes']} bytes{', encrypted' if done['encrypted'] else ''}; "
              f"{done['tool']})" + (f"; removed {len(done['removed'])} older" if done["removed"] else ""))

    def _restore(self, file: str, opts):
        from pathlib import Path

        from gigflow.db.backup import BackupError, restore

        try:
            done = restore(Path(file), opts.to or self.database_url,
                           key_file=Path(opts.key_file) if opts.key_file else None)
        except BackupError as exc:
            return self.fail(str(exc))
        print(f"restored {file} into {done['database']!r} ({done['tool']})")
