"""scrapy serve-fixtures [--dir fixtures/sites] [--port 8765]"""

import time

from gigflow.commands import GigflowCommand
from gigflow.devserver import FixtureServer


class Command(GigflowCommand):
    def syntax(self):
        return "[--dir DIR] [--port PORT]"

    def short_desc(self):
        return "Serve the fixture career sites on 127.0.0.1 until interrupted"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--dir", default="fixtures/sites", help="folder to serve (default: fixtures/sites)")
        parser.add_argument("--port", type=int, default=8765)

    def run(self, args, opts):
        with FixtureServer(opts.dir, port=opts.port) as server:
            print(f"serving {opts.dir} on {server.url} (Ctrl-C stops)", flush=True)
            try:
                while True:
                    time.sleep(3600)
            except KeyboardInterrupt:
                pass
