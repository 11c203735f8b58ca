"""What a finished crawl run was and when its source is crawled next: pure functions over the run's facts (read by
the finalizer from the ledger, the stats and the database) and the assessors' verdicts. No database, no Scrapy.

A run is *complete* (outcome ``finished``) only when Scrapy finished it, nothing marked it incomplete, every listing
yielded what a complete listing yields and no assessor (health: drift) found it unfit; only a complete run marks
jobs gone and counts toward the adaptive schedule. Else its outcome is ``incomplete:<code>``, and its source is
tried again sooner, with backoff."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Iterable

from gigflow.runs.exits import EXIT_NOTHING_READ, EXIT_OK
from gigflow.runs.ledger import Verdict

FINISHED = "finished"  # a complete run
INCOMPLETE = "incomplete:"  # + the code of the first reason
EMPTY_LISTING = "empty_listing"
OWNERSHIP_LOST = "ownership_lost"  # another process closed this run meanwhile
ANTI_BOT = INCOMPLETE + "anti_bot"
ABANDONED = INCOMPLETE + "abandoned"
ALREADY_RUNNING = INCOMPLETE + "already_running"
SHUTDOWN = INCOMPLETE + "shutdown"
TRIAL = "trial"  # the source status crawled less often


@dataclass(frozen=True)
class RunFacts:
    """What the decision reads. ``jobs_seen``, ``jobs_at_risk`` and ``emptied_listings`` matter only when
    ``listings_matter`` says so (the finalizer reads them from the database then)."""

    finish_reason: str  # Scrapy's: finished, shutdown, closespider_..., anti_bot, database, ...
    incomplete_code: str | None = None  # the ledger's first reason
    marks_gone: bool = True  # False for runs whose inputs are not listings (a mailbox)
    jobs_seen: int = 0  # jobs this run saw
    jobs_at_risk: int = 0  # live jobs of this source and spider it did not see (a complete run marks them gone)
    emptied_listings: tuple[str, ...] = ()  # listings with job links in the last complete run and none now


@dataclass(frozen=True)
class Decision:
    outcome: str
    why: str | None = None  # what made a run Scrapy finished incomplete here (for the log)

    @property
    def complete(self) -> bool:
        return self.outcome == FINISHED

    @property
    def code(self) -> str | None:
        return self.outcome.removeprefix(INCOMPLETE) if not self.complete else None


def listings_matter(finish_reason: str, incomplete_code: str | None, marks_gone: bool) -> bool:
    """Whether the run's job counts and emptied listings can change its outcome (else they need not be read)."""
    return finish_reason == FINISHED and not incomplete_code and marks_gone


def decide_outcome(facts: RunFacts, verdicts: Iterable[Verdict | None] = ()) -> Decision:
    """The run's outcome: ``finished`` or ``incomplete:<code>``. Without ``verdicts`` it is the provisional outcome
    the assessors judge; a verdict makes only a run that would be complete incomplete."""
    if facts.finish_reason != FINISHED:
        return Decision(INCOMPLETE + facts.finish_reason)
    if facts.incomplete_code:
        return Decision(INCOMPLETE + facts.incomplete_code)
    if facts.marks_gone and ((facts.jobs_seen == 0 and facts.jobs_at_risk) or facts.emptied_listings):
        return Decision(INCOMPLETE + EMPTY_LISTING, "listing yielded no job although the last complete run had "
                        f"jobs: {', '.join(facts.emptied_listings) or 'every listing'}")
    for verdict in verdicts:
        if verdict is not None:
            return Decision(INCOMPLETE + verdict.code, verdict.reason)
    return Decision(FINISHED)


def exit_code(decision: Decision, pages_read: int, fetch_failures: int) -> int:
    """The crawl's exit code once its run is recorded: 4 when it read no page at all and its fetches failed
    (every listing request refused or failed), else 0."""
    if not decision.complete and not pages_read and fetch_failures:
        return EXIT_NOTHING_READ
    return EXIT_OK


@dataclass(frozen=True)
class CrawlPace:
    """How often a source is crawled (Scrapy settings, documented in gigflow/settings.py)."""

    base: float = 86400.0  # CRAWL_BASE_INTERVAL
    slowdown_after: int = 3  # CRAWL_SLOWDOWN_AFTER_UNCHANGED_RUNS
    factor: float = 2.0  # CRAWL_SLOWDOWN_FACTOR
    cap: float = 7 * 86400.0  # CRAWL_MAX_INTERVAL
    retry_base: float = 900.0  # SOURCE_RETRY_BASE
    retry_max: float = 21600.0  # SOURCE_RETRY_MAX
    trial_factor: float = 3.0  # SOURCE_TRIAL_INTERVAL_FACTOR

    @classmethod
    def from_settings(cls, settings) -> "CrawlPace":
        return cls(settings.getfloat("CRAWL_BASE_INTERVAL"), settings.getint("CRAWL_SLOWDOWN_AFTER_UNCHANGED_RUNS"),
                   settings.getfloat("CRAWL_SLOWDOWN_FACTOR"), settings.getfloat("CRAWL_MAX_INTERVAL"),
                   settings.getfloat("SOURCE_RETRY_BASE"), settings.getfloat("SOURCE_RETRY_MAX"),
                   settings.getfloat("SOURCE_TRIAL_INTERVAL_FACTOR"))


def next_interval(unchanged_runs: int, base: float, slowdown_after: int, factor: float, cap: float) -> float:
    """Base interval until ``slowdown_after`` unchanged runs in a row, then multiplied by ``factor`` per further
    unchanged run, at most ``cap``."""
    steps = max(0, unchanged_runs - slowdown_after + 1)
    return min(cap, base * factor ** steps)


def retry_delay(failed_in_a_row: int, base: float, cap: float) -> float:
    """Seconds until a source whose last ``failed_in_a_row`` runs failed is tried again: base, doubling, capped."""
    return min(cap, base * 2 ** max(0, failed_in_a_row - 1))


def next_crawl_seconds(outcome: str, pace: CrawlPace, *, unchanged_runs: int = 0, failed_in_a_row: int = 1,
                       status: str | None = None) -> float:
    """Seconds from now to the source's next crawl. A complete run: the adaptive interval (slower while content
    stays unchanged), ``trial_factor`` times that for a source on trial. An incomplete run: retried after
    ``retry_delay`` (``failed_in_a_row`` counts this run)."""
    if outcome != FINISHED:
        return retry_delay(failed_in_a_row, pace.retry_base, pace.retry_max)
    seconds = next_interval(unchanged_runs, pace.base, pace.slowdown_after, pace.factor, pace.cap)
    return seconds * pace.trial_factor if status == TRIAL else seconds


def next_crawl(outcome: str, pace: CrawlPace, now: datetime, *, unchanged_runs: int = 0, failed_in_a_row: int = 1,
               status: str | None = None) -> datetime:
    """When the source is crawled next (see ``next_crawl_seconds``)."""
    return now + timedelta(seconds=next_crawl_seconds(outcome, pace, unchanged_runs=unchanged_runs,
                                                      failed_in_a_row=failed_in_a_row, status=status))
