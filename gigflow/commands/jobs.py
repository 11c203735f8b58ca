"""scrapy jobs [--source ID] [--all] | scrapy jobs history KEY [--source ID] | scrapy jobs reextract [--source ID]
| scrapy jobs --format FORMAT (canonical jobs) | resolve | unmerge JOB_ID | check-links | refresh | worker"""

import sys
from dataclasses import asdict

from gigflow.commands import GigflowCommand, UsageError, table
from gigflow.paths import markdown_path
from gigflow.store import jobs as store_jobs


class Command(GigflowCommand):
    def syntax(self):
        return ("[--source ID] [--all] [--after JOB_ID] [--limit N] | history KEY [--source ID] "
                "| reextract [--source ID] | --format table|jsonl|csv|json [--source ID] [--published] [--since DATE] "
                "| resolve [--source ID] | unmerge JOB_ID | check-links [--id N ...] | refresh | worker")

    def short_desc(self):
        return "List stored jobs, show why a job changed (history), or re-extract stored pages (reextract)"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--source", help="only this source")
        parser.add_argument("--all", action="store_true", help="include jobs marked gone")
        parser.add_argument("--after", type=int, help="the page after this job id (the last one a page showed)")
        parser.add_argument("--limit", type=int, help="jobs per page (default: LISTING_PAGE_SIZE)")
        parser.add_argument("--format", dest="export_format", choices=("table", "jsonl", "csv", "json"),
                            help="export canonical jobs (all fields, evidence, sightings) in this format, streamed")
        parser.add_argument("--published", action="store_true", help="with --format: published canonical jobs only")
        parser.add_argument("--since", help="with --format: canonical jobs seen since this ISO date")
        parser.add_argument("--id", dest="canonical_ids", type=int, action="append",
                            help="check-links: this canonical job now (repeatable); default: the due share")

    def run(self, args, opts):
        for option, values in (("--id", opts.canonical_ids or []), ("--after", [getattr(opts, "after", None)])):
            for value in values:
                if isinstance(value, int) and not 0 <= value <= BIGINT_MAX:
                    return self.fail(f"{option} {value}: not a job id (a number from 0 to {BIGINT_MAX})")
        if args[:1] == ["unmerge"] and len(args) == 2 and args[1].isdigit() and int(args[1]) > BIGINT_MAX:
            return self.fail(f"unmerge: {args[1]} is not a job id (a number from 0 to {BIGINT_MAX})")
        if opts.source and not self.source_exists(opts.source):
            return self.fail(f"unknown source {opts.source!r} (see `scrapy sources list`)")
        if not args and opts.export_format:
            return self.export(opts)
        if not args:
            return self.list_jobs(opts)
        if args[0] in MAINTENANCE and len(args) == (2 if args[0] == "unmerge" else 1):
            return self.maintenance(args, opts)
        if args[0] == "history" and len(args) == 2:
            return self.history(args[1], opts.source)
        if args == ["reextract"]:
            # Imported here (the adapters): scrapy imports every command module at start-up, whichever runs.
            from gigflow.maintenance.reextract import reextract
            from gigflow.sources.repository import UnknownSourceError

            try:
                counts = reextract(self.pool, opts.source)
            except UnknownSourceError as exc:
                return self.fail(str(exc))
            print(f"{counts['versions']} stored page(s) read: {counts['reextracted']} job(s) re-extracted, "
                  f"{counts['new']} new, {counts['changed']} changed; {counts['skipped']} page(s) already current")
            return None
        raise UsageError()

    def source_exists(self, source_id: str) -> bool:
        from gigflow.sources.repository import source_exists

        with self.pool.connection() as conn:
            return source_exists(conn, source_id)

    def history(self, key: str, source_id: str | None):
        """KEY: a job id (the `id` column of `scrapy jobs`), its canonical key, or the URL or external id."""
        with self.pool.connection() as conn:
            events = store_jobs.job_history(conn, key, source_id)
        rows = [asdict(event) for event in events]
        if not rows:
            return self.fail(f"no job with id or key {key!r}" + (f" in source {source_id!r}" if source_id else "")
                             + " (the id column of `scrapy jobs --all`)", code=1)
        # The whole key, never cut: it is what a person copies into the next command.
        print(table(rows, ["at", "job_id", "source_id", "kind", "fields", "run_id"], {"fields": 60}))
        for job_id, key in dict.fromkeys((event.job_id, event.canonical_key) for event in events):
            print(f"job {job_id}: {key}")
        return None

    def list_jobs(self, opts):
        limit = opts.limit or self.settings.getint("LISTING_PAGE_SIZE")
        if limit < 1:
            return self.fail("--limit must be at least 1")
        with self.pool.connection() as conn:
            jobs = store_jobs.list_jobs(conn, opts.source, opts.all, opts.after, limit)
        rows = []
        for job in jobs:
            path = markdown_path(self.settings.get("MARKDOWN_DIR", ""), job.source_id, job.sha256)
            rows.append({**asdict(job), "markdown": str(path) if path and path.exists()
                         else f"source_versions.id={job.source_version_id}"})
        if not rows:
            print("no jobs" + (f" in source {opts.source}" if opts.source else "")
                  + ("" if opts.all else " (jobs marked gone: add --all)"))
            return
        # id first: what `jobs history ID` and `jobs unmerge ID` take (keys are long; the table would cut them)
        print(table(rows, ["id", "title", "employer", "location", "url", "markdown"],
                    {"title": 40, "employer": 24, "location": 24, "url": 60, "markdown": 80}))
        print(f"\n{len(rows)} job(s)")
        if len(rows) == limit:
            source = f" --source {opts.source}" if opts.source else ""
            print(f"next page: scrapy jobs{source}{' --all' if opts.all else ''} --after {jobs[-1].id}")

    def library(self):
        """The library's view of this command's database (gigflow.api), with this command's settings."""
        from gigflow import api

        return api.Connection(self.database_url, self.settings, pool=self.pool)  # the home's own, migrated

    def export(self, opts):
        from gigflow import api
        from gigflow.maintenance.export import write

        try:
            since = api.parse_since(opts.since)  # a bad date is named before anything is written
            rows = self.library().jobs(source=opts.source, published=opts.published, since=since)
            write(rows, opts.export_format, sys.stdout)
        except ValueError as exc:
            return self.fail(str(exc))
        return None

    def maintenance(self, args, opts):
        from gigflow.maintenance.resolve import UnmergeError

        if args[0] == "resolve":
            counts = self.library().resolve(source=opts.source)
            refusals = counts.pop("refusals", [])
            print(counts)
            for refusal in refusals:  # suspicious merges the resolver did not make, and why
                if "key" in refusal:
                    print(f"refused: {refusal['key']} of source {refusal['source_id']} as identity of jobs "
                          f"{', '.join(map(str, refusal['job_ids']))}: {refusal['why']}")
                else:
                    print(f"refused: job {refusal['job_id']} -> canonical job {refusal['would_join']} "
                          f"(with job {refusal['with_job']}): {refusal['why']}")
        elif args[0] == "unmerge":
            if not args[1].isdigit():
                return self.fail(f"unmerge: {args[1]!r} is not a job id (a number: the job_id of a sighting)")
            try:
                moved = self.library().unmerge(int(args[1]))
            except UnmergeError as exc:
                return self.fail(str(exc), code=1)
            print(f"job {moved['job_id']} moved from canonical job {moved['from']} to its own canonical job "
                  f"{moved['to']}; it will not be merged back")
        elif args[0] == "check-links":
            counts = self.library().check_links(opts.canonical_ids)
            print(", ".join(f"{n} {status}" for status, n in sorted(counts.items())) if counts else
                  "nothing due: every canonical job's links were checked within LINKCHECK_INTERVAL_HOURS "
                  "(check one now with --id N)" if opts.canonical_ids is None else
                  "nothing checked: no canonical job with those ids (see `scrapy jobs --format table`)")
        elif args[0] == "refresh":
            counts = self.library().refresh()
            print(", ".join(f"{n} {name}" for name, n in counts.items()) if counts.get("checked") else
                  "nothing to refresh: no canonical job yet (crawl a source, then `scrapy jobs resolve`)")
        elif args[0] == "worker":
            from scrapy.utils.log import configure_logging

            from gigflow.maintenance.worker import run_worker

            from gigflow.safety.extension import RedactCredentials

            configure_logging({"LOG_ENABLED": True, "LOG_LEVEL": self.settings.get("LOG_LEVEL", "INFO")})
            RedactCredentials().install()  # no secret in a log line
            run_worker(self.database_url, self.settings)
        return None


BIGINT_MAX = 2 ** 63 - 1  # job ids are PostgreSQL bigints
MAINTENANCE = ("resolve", "unmerge", "check-links", "refresh", "worker")
