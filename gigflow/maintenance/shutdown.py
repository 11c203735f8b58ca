"""Shutdown for work that runs after a crawl, inside the reactor's thread (per-job Markdown, canonical jobs).

Scrapy answers SIGTERM/SIGINT by scheduling the engine's stop on the reactor; work that holds the reactor never
sees it. ``ShutdownWatch`` sets a flag as the signal arrives (and still hands it to Scrapy's handler), so a loop
that asks ``watch.requested`` between items ends within one item.
"""

from __future__ import annotations

import signal
import threading

SIGNALS = (signal.SIGTERM, signal.SIGINT)
SCRAPY_KILL_HANDLER = "_signal_kill"  # scrapy.crawler.CrawlerProcess._signal_kill (and _signal_kill_reactorless)


class ShutdownWatch:
    """Context manager: ``requested`` turns True on SIGTERM/SIGINT while it is active (main thread only; elsewhere
    it never turns, as a signal cannot be caught there), or when ``already`` was True on entry."""

    def __init__(self, already: bool = False):
        self.requested = already
        self._previous: dict = {}

    def _handle(self, signum, frame):
        self.requested = True
        previous = self._previous.get(signum)
        if callable(previous):
            previous(signum, frame)

    def __enter__(self) -> ShutdownWatch:
        if threading.current_thread() is threading.main_thread():
            for signum in SIGNALS:
                previous = self._previous[signum] = signal.signal(signum, self._handle)
                # Scrapy answers the first signal by installing its kill handler (a second signal kills): a
                # shutdown that came before this watch began.
                if getattr(previous, "__name__", "").startswith(SCRAPY_KILL_HANDLER):
                    self.requested = True
        return self

    def __exit__(self, *exc) -> None:
        for signum, previous in self._previous.items():
            # Scrapy's handler replaces itself on the first signal (the second one kills): keep what it set.
            if signal.getsignal(signum) == self._handle:
                signal.signal(signum, previous if previous is not None else signal.SIG_DFL)
        self._previous.clear()

    def __call__(self) -> bool:
        return self.requested
