"""An HTML crawl whose jobs live on one known ATS board says so: the run's stats carry the board
(`gigflow/ats_hint/*`), and `scrapy sources show` and the review app print it, so an operator can switch the
source to the ats strategy (structured JSON, stable ids) instead of reading the employer's HTML."""

from __future__ import annotations

from collections import defaultdict

from scrapy import signals
from scrapy.exceptions import NotConfigured

from gigflow.adapters.ats.recognise import SUPPORTED, board_of

HINT = "gigflow/ats_hint/"
MAX_LINKS_PER_PAGE = 2000
# A board is the hint when at least this share of the run's ATS links point to it (one board, not several).
MIN_SHARE = 0.8
# Spiders whose content is not the employer's HTML: an ATS crawl is already on its board; alerts and feeds vary.
SKIPPED_SPIDERS = ("ats", "mailbox", "discover")


class AtsBoardHint:
    def __init__(self, crawler, min_links: int):
        self.crawler = crawler
        self.min_links = min_links
        self.urls: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.region: dict[tuple[str, str], str] = {}

    @classmethod
    def from_crawler(cls, crawler):
        min_links = crawler.settings.getint("ATS_HINT_MIN_LINKS")
        if min_links < 1:
            raise NotConfigured
        hint = cls(crawler, min_links)
        crawler.signals.connect(hint.item_scraped, signal=signals.item_scraped)
        return hint

    def item_scraped(self, item, response, spider):
        if getattr(spider, "name", None) in SKIPPED_SPIDERS:
            return
        urls = [value for job in item.get("jobs") or [] for value in (job.get("url"), job.get("apply_url")) if value]
        urls += list(item.get("links") or [])[:MAX_LINKS_PER_PAGE]
        for url in urls:
            ref = board_of(url) if isinstance(url, str) else None
            if ref is not None and ref.provider in SUPPORTED and ref.kind in ("job", "embed", "board", "api"):
                key = (ref.provider, ref.board)
                self.urls[key].add(url)
                self.region[key] = ref.region
        self.record()

    def record(self) -> None:
        if not self.urls:
            return
        total = sum(len(urls) for urls in self.urls.values())
        (provider, board), urls = max(self.urls.items(), key=lambda pair: len(pair[1]))
        if len(urls) < self.min_links or len(urls) / total < MIN_SHARE:
            return
        stats = self.crawler.stats
        stats.set_value(HINT + "provider", provider)
        stats.set_value(HINT + "board", board)
        stats.set_value(HINT + "region", self.region[(provider, board)])
        stats.set_value(HINT + "links", len(urls))
        stats.set_value(HINT + "example", sorted(urls)[0][:300])


def hint_from_stats(stats: dict | None) -> dict | None:
    """The ATS board a run's stats name, as {provider, board, region, links, example}, or None."""
    if not stats or not stats.get(HINT + "provider"):
        return None
    return {name: stats.get(HINT + name) for name in ("provider", "board", "region", "links", "example")}
