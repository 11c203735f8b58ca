"""Run several crawls one after another in one process: one Scrapy start-up instead of one per crawl.

helpers.crawl_sequence runs ``main`` in a forked child of the test process;
``python tests/crawl_sequence.py '[{"spider": "href", "source": "demo", "settings": {...}}, ...]'`` prints, as its
last line, the JSON list of each crawl's gigflow exit code (0: ran and was finalized).
"""

from __future__ import annotations

import json
import sys

from scrapy.crawler import Crawler, CrawlerProcess
from scrapy.utils.project import get_project_settings
from scrapy.utils.reactor import install_reactor
from twisted.internet import defer

from gigflow.runs.ledger import run_ledger


def main(plan: list[dict]) -> None:
    base = get_project_settings()
    # Process-wide parts (the DNS resolver, the reactor) are built from these: the first step's settings.
    base.setdict(plan[0].get("settings", {}) if plan else {}, priority="cmdline")
    install_reactor(base["TWISTED_REACTOR"])
    process = CrawlerProcess(base)
    from twisted.internet import reactor
    codes: list[int] = []

    @defer.inlineCallbacks
    def run_all():
        try:
            for step in plan:
                settings = base.copy()
                settings.setdict(step.get("settings", {}), priority="cmdline")
                crawler = Crawler(process.spider_loader.load(step["spider"]), settings)
                yield process.crawl(crawler, source=step["source"])
                codes.append(run_ledger(crawler).exit_code)
        finally:
            reactor.callLater(0, reactor.stop)

    reactor.callWhenRunning(run_all)
    process.start(stop_after_crawl=False)
    print(json.dumps(codes))


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
