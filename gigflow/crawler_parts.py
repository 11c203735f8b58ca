"""What the components of one crawl share lives on its Scrapy crawler, one attribute each, named here: never in a
class- or module-level registry keyed by crawler (tests/test_import_rules.py holds the house to that).

A part is made on first use by whichever component asks first (the spider opens the crawl context before Scrapy
builds its middlewares, extensions and pipelines), so every component of a crawl gets the same one and each crawler
of a batch process its own. The parts, as ``crawler.<attribute>``:

- ``gigflow_context``: the run's source, strategy and noise filter (gigflow.context.CrawlContext.from_crawler);
- ``run_ledger``: the run's state the finalizer decides its outcome from (gigflow.runs.ledger.run_ledger);
- ``gigflow_database_outage``: since when the database is away (gigflow.db.outage.DatabaseOutage.for_crawler);
- ``gigflow_shared_waits``: the in-process queues of one event loop (``SharedWaits``); the batch runner hands one
  to every crawler it starts, so its crawls queue together as one process should.

Components Scrapy builds are found through the crawler, not here: the politeness gate is its downloader
middleware's (gigflow.middlewares.politeness.politeness_gate, with ``crawler.get_downloader_middleware``).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, TypeVar

CRAWL_CONTEXT = "gigflow_context"
RUN_LEDGER = "run_ledger"
DATABASE_OUTAGE = "gigflow_database_outage"
SHARED_WAITS = "gigflow_shared_waits"

T = TypeVar("T")


def crawler_part(crawler, attribute: str, build: Callable[[], T]) -> T:
    """The crawler's part under ``attribute``, built (``build()``) and kept there on first use."""
    part = getattr(crawler, attribute, None)
    if part is None:
        part = build()
        setattr(crawler, attribute, part)
    return part


@dataclass
class SharedWaits:
    """Queues the crawls of one event loop share (a batch runs several): one waiter per politeness key polls the
    database while the others queue on its lock, and one reading of an origin's robots.txt is awaited by the others
    instead of each spending a politeness slot on the same file."""

    key_locks: defaultdict[str, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))
    robots_readings: dict[str, asyncio.Future] = field(default_factory=dict)


def shared_waits(crawler) -> SharedWaits:
    return crawler_part(crawler, SHARED_WAITS, SharedWaits)


def share_waits(crawler, waits: SharedWaits) -> None:
    """Make ``crawler`` queue with the other crawlers given the same ``waits`` (they run in one event loop)."""
    setattr(crawler, SHARED_WAITS, waits)
