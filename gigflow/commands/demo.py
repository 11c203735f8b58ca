"""scrapy demo: import the demo source, serve the fixture site, crawl it, print the jobs, then learn the site's
noise filter offline and show what the next crawl's Markdown loses (template) and keeps (job facts)."""

import subprocess
import sys

from gigflow.commands import GigflowCommand, print_error

DEMO_PORT = 8765
CRAWL = [sys.executable, "-m", "scrapy", "crawl", "href", "-a", "source=demo", "-s", "POLITENESS_MIN_INTERVAL=0.2",
         "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "LOG_LEVEL=WARNING"]
SHOWCASE = f"http://127.0.0.1:{DEMO_PORT}/demo/jobs/data-analyst.html"


class Command(GigflowCommand):
    def short_desc(self):
        return "Run the demo: serve fixtures/sites on 127.0.0.1:8765, crawl source 'demo', list its jobs"

    def run(self, args, opts):
        # Imported here: scrapy imports every command module at start-up, whichever command runs.
        from gigflow.devserver import FixtureServer
        from gigflow.sources.loader import load_source_file
        from gigflow.sources.repository import get_source, import_sources

        pool = self.pool
        import_sources(pool, load_source_file("fixtures/sources/demo.yaml"))
        print("imported source 'demo' (fixtures/sources/demo.yaml)")
        try:
            serving = FixtureServer("fixtures/sites", port=DEMO_PORT)
        except OSError as exc:  # another program holds the demo's port: say so, no traceback
            print_error(f"cannot serve the demo site on 127.0.0.1:{DEMO_PORT}: {exc.strerror or exc}; stop what "
                        "uses that port and run the demo again")
            self.exitcode = 1
            return
        with serving as server:
            print(f"serving fixtures/sites on {server.url}; crawling…", flush=True)
            if self._run(CRAWL):
                return
            self._run([sys.executable, "-m", "scrapy", "jobs", "--source", "demo"])
            before = self._markdown(pool)
            print("\nlearning the site's noise filter (offline `rules` classifier; set GIGFLOW_NOISE_MODEL for a "
                  "model)…", flush=True)
            # A manual request: the crawl's own automatic request waits out the hourly limit on a re-run.
            subprocess.run([sys.executable, "-m", "scrapy", "noise", "request",
                            str(get_source(pool, "demo").configuration_id), "--manual"], stdout=subprocess.DEVNULL)
            worker = subprocess.run([sys.executable, "-m", "scrapy", "noise", "worker", "--once",
                                     "-s", "NOISE_CLASSIFIER=rules", "-s", "LOG_LEVEL=WARNING"])
            if worker.returncode or self._run(CRAWL):
                self.exitcode = self.exitcode or worker.returncode
                return
        after = self._markdown(pool)
        rules = get_source(pool, "demo").stored_config.get("noiseFilter", {}).get("rules", [])
        removed = [line for line in before.splitlines() if line.strip() and line not in after]
        print(f"noise filter: {sum(r['decision'] == 'remove' for r in rules)} removal rule(s) learned; "
              f"{SHOWCASE} Markdown went from {len(before.splitlines())} to {len(after.splitlines())} lines.")
        print("lines removed as site template:")
        for line in removed[:8]:
            print(f"  - {line[:100]}")
        print("job facts still there:", ", ".join(f for f in ("Salary", "Apply before", "What you bring")
                                                 if f in after))
        # The freshness sweep scores quality and decides publishing (the worker does it every tick): run it once
        # so the review app's quality panel is filled right after the demo.
        from gigflow.maintenance.freshness import FreshnessSettings, sweep

        scored = sweep(pool, FreshnessSettings.from_settings(self.settings))
        print(f"quality scored for {scored['checked']} canonical job(s), {scored['published']} published "
              f"(`scrapy jobs refresh`)")
        print("\nthe demo source's health (`scrapy sources show demo`):", flush=True)
        self._run([sys.executable, "-m", "scrapy", "sources", "show", "demo"])

    def _run(self, command) -> int:
        code = subprocess.run(command).returncode
        self.exitcode = code
        return code

    @staticmethod
    def _markdown(pool) -> str:
        from gigflow.store import versions

        with pool.connection() as conn:
            row = versions.latest_version(conn, "demo", SHOWCASE)
        return (row.markdown if row else None) or ""
