"""scrapy demo: import the demo source, serve the fixture site, crawl it, print the jobs."""

import subprocess
import sys

from gigflow.commands import GigflowCommand
from gigflow.db import get_pool
from gigflow.devserver import FixtureServer
from gigflow.sources.loader import load_source_file
from gigflow.sources.repository import import_sources

DEMO_PORT = 8765


class Command(GigflowCommand):
    def short_desc(self):
        return "Run the demo: serve fixtures/sites on 127.0.0.1:8765, crawl source 'demo', list its jobs"

    def run(self, args, opts):
        import_sources(get_pool(), load_source_file("fixtures/sources/demo.yaml"))
        print("imported source 'demo' (fixtures/sources/demo.yaml)")
        with FixtureServer("fixtures/sites", port=DEMO_PORT) as server:
            print(f"serving fixtures/sites on {server.url}; crawling…", flush=True)
            crawl = subprocess.run([sys.executable, "-m", "scrapy", "crawl", "href", "-a", "source=demo",
                                    "-s", "POLITENESS_MIN_INTERVAL=0.2", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
                                    "-s", "LOG_LEVEL=WARNING"])
        if crawl.returncode:
            self.exitcode = crawl.returncode
            return
        subprocess.run([sys.executable, "-m", "scrapy", "jobs", "--source", "demo"])
