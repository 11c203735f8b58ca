"""scrapy jobs [--source ID] [--all]"""

from gigflow.commands import GigflowCommand, table
from gigflow.db import get_pool
from gigflow.paths import markdown_path
from gigflow.sql import load_sql


class Command(GigflowCommand):
    def syntax(self):
        return "[--source ID] [--all] [--after JOB_ID] [--limit N]"

    def short_desc(self):
        return "List stored jobs with employer, location, URL and where their Markdown is"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--source", help="only this source")
        parser.add_argument("--all", action="store_true", help="include jobs marked gone")
        parser.add_argument("--after", type=int, help="the page after this job id (the last one a page showed)")
        parser.add_argument("--limit", type=int, help="jobs per page (default: LISTING_PAGE_SIZE)")

    def run(self, args, opts):
        limit = opts.limit or self.settings.getint("LISTING_PAGE_SIZE")
        if limit < 1:
            return self.fail("--limit must be at least 1")
        with get_pool().connection() as conn:
            rows = conn.execute(load_sql("gigflow.commands", "list_jobs.sql"),
                                {"source_id": opts.source, "include_gone": opts.all, "after": opts.after,
                                 "limit": limit}).fetchall()
        for row in rows:
            path = markdown_path(self.settings.get("MARKDOWN_DIR", ""), row["source_id"], row["sha256"])
            row["markdown"] = str(path) if path and path.exists() else f"source_versions.id={row['source_version_id']}"
        if not rows:
            print("no jobs")
            return
        print(table(rows, ["title", "employer", "location", "url", "markdown"],
                    {"title": 40, "employer": 24, "location": 24, "url": 60, "markdown": 80}))
        print(f"\n{len(rows)} job(s)")
        if len(rows) == limit:
            source = f" --source {opts.source}" if opts.source else ""
            print(f"next page: scrapy jobs{source}{' --all' if opts.all else ''} --after {rows[-1]['id']}")
