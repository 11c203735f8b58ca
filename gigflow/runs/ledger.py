"""The run ledger: one typed record of a crawl run's state, on its crawler (``run_ledger(crawler)``).

Components write what they learn here (the run's id and owner token, the first reason it is incomplete, why its
source was quarantined, its exit code) and the finalizer reads it; stats stay a report. Components that judge a
run before its outcome is decided (health: drift) register an *assessor*, and those that write in the finalizing
transaction after the decision (health's row, scheduling's claim) a *recorder*: both are called by the finalizer,
in that transaction, in the order they registered (gigflow.runs.finalize)."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Callable

from gigflow.crawler_parts import RUN_LEDGER, crawler_part

if TYPE_CHECKING:
    from gigflow.runs.decide import Decision


@dataclass(frozen=True)
class Verdict:
    """An assessor's finding that a run which would be complete is not: ``incomplete:<code>``, with a reason."""

    code: str
    reason: str


# assessor(conn, ledger, provisional outcome) -> Verdict | None; recorder(conn, ledger, decision) -> None
Assessor = Callable[[object, "RunLedger", str], "Verdict | None"]
Recorder = Callable[[object, "RunLedger", "Decision"], None]


@dataclass
class RunLedger:
    run_id: int | None = None
    token: str | None = None  # the owner token the database checks before the run is finished or marks jobs gone
    incomplete_code: str | None = None  # the first reason the run saw only part of its input
    quarantined: str | None = None  # why the source was quarantined during this run
    exit_code: int = 0
    # Set by the finalizer, for the side effects that follow (source_finalized) and the people reading the log.
    outcome: str | None = None
    next_crawl_at: datetime | None = None
    assessors: list[Assessor] = field(default_factory=list)
    recorders: list[Recorder] = field(default_factory=list)
    _mutex: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def mark_incomplete(self, code: str) -> bool:
        """Record that the run saw only part of its input; True when ``code`` is the first (it becomes the
        outcome, ``incomplete:<code>``)."""
        with self._mutex:  # finalizing runs in a thread beside the reactor
            if self.incomplete_code:
                return False
            self.incomplete_code = code
            return True

    def add_assessor(self, assessor: Assessor) -> None:
        self.assessors.append(assessor)

    def add_recorder(self, recorder: Recorder) -> None:
        self.recorders.append(recorder)


def run_ledger(crawler) -> RunLedger:
    """The crawler's run ledger (``crawler.run_ledger``: gigflow.crawler_parts), made on first use: one per
    crawler, so every part of a run, and every run of a batch process, has its own."""
    return crawler_part(crawler, RUN_LEDGER, RunLedger)
