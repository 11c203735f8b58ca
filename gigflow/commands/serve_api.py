"""scrapy serve-api [--host 127.0.0.1] [--port 8001]: the read API over published canonical jobs."""

from gigflow.commands import GigflowCommand


class Command(GigflowCommand):
    def syntax(self):
        return "[--host 127.0.0.1] [--port 8001]"

    def short_desc(self):
        return "Serve the read API (jobs, change feed, search) to token holders"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
        parser.add_argument("--port", type=int, default=8001, help="port (default: 8001)")

    def run(self, args, opts):
        from gigflow.delivery.server import serve

        if args:
            return self.fail("serve-api takes no arguments, only --host and --port")
        if not 0 < opts.port < 65536:
            return self.fail(f"--port must be 1-65535, not {opts.port}")
        serve(self.settings, host=opts.host, port=opts.port)
