"""scrapy sources import FILE | scrapy sources list"""

from gigflow.commands import GigflowCommand, UsageError, table
from gigflow.db import get_pool
from gigflow.sources.loader import SourceFileError, load_source_file
from gigflow.sources.repository import import_sources, list_sources


class Command(GigflowCommand):
    def syntax(self):
        return "import FILE | list [--after ID] [--limit N]"

    def short_desc(self):
        return "Import sources from a YAML/JSON file (all or nothing), or list them"

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
            import_sources(get_pool(), configs)
            print(f"imported {len(configs)} source(s): {', '.join(c.id for c in configs)}")
        elif args == ["list"]:
            limit = opts.limit or self.settings.getint("LISTING_PAGE_SIZE")
            if limit < 1:
                return self.fail("--limit must be at least 1")
            rows = list_sources(get_pool(), after=opts.after, limit=limit)
            print(table(rows, ["id", "company", "status", "jobs", "last_crawl", "url"]) if rows else "no sources")
            if len(rows) == limit:
                print(f"\nnext page: scrapy sources list --after {rows[-1]['id']}")
        else:
            raise UsageError()
