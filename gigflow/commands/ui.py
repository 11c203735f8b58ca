"""scrapy ui [--host 127.0.0.1] [--port 8000]: the review web app on the same database."""

from gigflow.commands import GigflowCommand


class Command(GigflowCommand):
    def syntax(self):
        return "[--host 127.0.0.1] [--port 8000]"

    def short_desc(self):
        return "Serve the review web app (sources, jobs, noise decisions) on the same database"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
        parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")

    def run(self, args, opts):
        from gigflow.ui.server import UiConfigError, serve

        if args:
            return self.fail("ui takes no arguments, only --host and --port")
        if not 0 < opts.port < 65536:
            return self.fail(f"--port must be 1-65535, not {opts.port}")
        try:
            serve(self.settings, host=opts.host, port=opts.port)
        except UiConfigError as exc:
            self.fail(str(exc))
