"""The run's decisions, pure: what a finished crawl run was (decide_outcome) and when its source is crawled next
(next_crawl), over tables of the cases the finalizer meets. The finalizer's transaction itself is exercised by the
crawl tests (test_source_health, test_politeness_schedule, test_faults)."""

from datetime import datetime, timedelta, timezone

import pytest

from gigflow.runs.decide import (CrawlPace, Decision, RunFacts, decide_outcome, exit_code, listings_matter,
                                 next_crawl, next_crawl_seconds)
from gigflow.runs.exits import EXIT_ALREADY_RUNNING, EXIT_BAD_INPUT, EXIT_FINALIZATION_FAILED, EXIT_NOTHING_READ, worst
from gigflow.runs.ledger import RunLedger, Verdict, run_ledger

DRIFT = Verdict("drift", "drift: jobs 2 outside [5, 20] of the recent runs")


@pytest.mark.parametrize("facts, verdicts, outcome", [
    # Scrapy finished, nothing marked it incomplete, the listings yielded jobs: complete.
    (RunFacts("finished", jobs_seen=8, jobs_at_risk=1), [], "finished"),
    # Scrapy's own reason wins over everything else (a shutdown, a bot challenge, a lost database).
    (RunFacts("shutdown", incomplete_code="fetch_failed"), [DRIFT], "incomplete:shutdown"),
    (RunFacts("anti_bot"), [], "incomplete:anti_bot"),
    (RunFacts("database", jobs_seen=3), [], "incomplete:database"),
    # The first reason a component marked the run incomplete.
    (RunFacts("finished", incomplete_code="fetch_failed", jobs_seen=7), [DRIFT], "incomplete:fetch_failed"),
    (RunFacts("finished", incomplete_code="ownership_lost"), [], "incomplete:ownership_lost"),
    # A listing that had jobs in the last complete run and now yields none: not trusted to retire jobs.
    (RunFacts("finished", jobs_seen=0, jobs_at_risk=5), [], "incomplete:empty_listing"),
    (RunFacts("finished", jobs_seen=4, jobs_at_risk=2, emptied_listings=("https://x.test/jobs?page=2",)), [],
     "incomplete:empty_listing"),
    # ... but a first run (nothing at risk) that finds nothing is complete: the company has no vacancy.
    (RunFacts("finished", jobs_seen=0, jobs_at_risk=0), [], "finished"),
    # A mailbox (its inputs are not listings) is never judged by its listings.
    (RunFacts("finished", marks_gone=False, jobs_seen=0, jobs_at_risk=5, emptied_listings=("x",)), [], "finished"),
    # An assessor's verdict makes only a run that would be complete incomplete; no verdict (None) changes nothing.
    (RunFacts("finished", jobs_seen=8), [None, DRIFT], "incomplete:drift"),
    (RunFacts("finished", jobs_seen=0, jobs_at_risk=5), [DRIFT], "incomplete:empty_listing"),
    (RunFacts("finished", jobs_seen=8), [None], "finished"),
])
def test_decide_outcome(facts, verdicts, outcome):
    decision = decide_outcome(facts, verdicts)
    assert decision.outcome == outcome
    assert decision.complete == (outcome == "finished")
    assert decision.code == (None if outcome == "finished" else outcome.removeprefix("incomplete:"))


def test_a_run_made_incomplete_here_says_why_and_the_provisional_outcome_ignores_verdicts():
    facts = RunFacts("finished", jobs_seen=2, jobs_at_risk=3, emptied_listings=("https://x.test/a", "https://x.test/b"))
    assert decide_outcome(facts).why == ("listing yielded no job although the last complete run had jobs: "
                                         "https://x.test/a, https://x.test/b")
    complete = RunFacts("finished", jobs_seen=9)
    assert decide_outcome(complete) == Decision("finished")  # what the assessors judge
    assert decide_outcome(complete, [DRIFT]).why == DRIFT.reason
    assert decide_outcome(RunFacts("shutdown")).why is None  # Scrapy's reason is its own explanation


@pytest.mark.parametrize("reason, code, marks_gone, matter", [
    ("finished", None, True, True), ("finished", "fetch_failed", True, False), ("shutdown", None, True, False),
    ("finished", None, False, False)])
def test_job_counts_are_read_only_when_they_can_change_the_outcome(reason, code, marks_gone, matter):
    assert listings_matter(reason, code, marks_gone) is matter
    # Whatever counts a run would read, they decide nothing when they do not matter.
    if not matter:
        facts = dict(finish_reason=reason, incomplete_code=code, marks_gone=marks_gone)
        assert (decide_outcome(RunFacts(**facts, jobs_seen=0, jobs_at_risk=9)).outcome
                == decide_outcome(RunFacts(**facts, jobs_seen=9)).outcome)


PACE = CrawlPace(base=1000, slowdown_after=2, factor=3, cap=20000, retry_base=100, retry_max=700, trial_factor=4)


@pytest.mark.parametrize("outcome, unchanged, failed, status, seconds", [
    ("finished", 0, 1, "active", 1000),  # content changed: the base interval
    ("finished", 1, 1, "active", 1000),  # unchanged, but fewer than slowdown_after in a row
    ("finished", 2, 1, "active", 3000),  # from the 2nd unchanged run on: times the factor per run
    ("finished", 3, 1, "active", 9000),
    ("finished", 9, 1, "active", 20000),  # capped
    ("finished", 0, 1, "trial", 4000),  # a trial source: trial_factor times the adaptive interval
    ("finished", 3, 1, "trial", 36000),  # (the cap bounds the adaptive part; the trial pace multiplies it)
    ("finished", 0, 1, None, 1000),
    ("incomplete:fetch_failed", 5, 1, "active", 100),  # retried after retry_base, whatever the unchanged count
    ("incomplete:drift", 0, 2, "trial", 200),  # doubling per incomplete run in a row, trial or not
    ("incomplete:anti_bot", 0, 3, "active", 400),
    ("incomplete:database", 0, 10, "active", 700),  # capped at retry_max
])
def test_next_crawl(outcome, unchanged, failed, status, seconds):
    now = datetime(2025, 3, 1, 12, 0, tzinfo=timezone.utc)
    assert next_crawl_seconds(outcome, PACE, unchanged_runs=unchanged, failed_in_a_row=failed,
                              status=status) == seconds
    assert next_crawl(outcome, PACE, now, unchanged_runs=unchanged, failed_in_a_row=failed,
                      status=status) == now + timedelta(seconds=seconds)


def test_the_pace_comes_from_the_documented_settings():
    from scrapy.settings import Settings

    from gigflow import settings as defaults

    pace = CrawlPace.from_settings(Settings({**{k: getattr(defaults, k) for k in dir(defaults) if k.isupper()},
                                             "SOURCE_RETRY_BASE": "60"}))
    assert pace == CrawlPace(base=86400.0, slowdown_after=3, factor=2.0, cap=7 * 86400.0, retry_base=60.0,
                             retry_max=21600.0, trial_factor=3.0)
    # An incomplete run is always retried sooner than a complete one's base interval.
    assert next_crawl_seconds("incomplete:x", pace, failed_in_a_row=50) < next_crawl_seconds("finished", pace)


@pytest.mark.parametrize("decision, pages, failures, code", [
    (Decision("incomplete:fetch_failed"), 0, 3, EXIT_NOTHING_READ),  # every listing request refused or failed
    (Decision("incomplete:fetch_failed"), 2, 3, 0),  # read something
    (Decision("incomplete:anti_bot"), 0, 0, 0),  # read nothing, but nothing failed: the run says why
    (Decision("finished"), 0, 0, 0),
])
def test_exit_code_once_recorded(decision, pages, failures, code):
    assert exit_code(decision, pages, failures) == code


def test_a_batch_exits_with_its_worst_code():
    assert worst([0, 0]) == 0
    assert worst([0, EXIT_ALREADY_RUNNING, EXIT_NOTHING_READ]) == EXIT_NOTHING_READ
    assert worst([EXIT_ALREADY_RUNNING, EXIT_BAD_INPUT, EXIT_FINALIZATION_FAILED]) == EXIT_FINALIZATION_FAILED


def test_the_ledger_keeps_the_first_incomplete_reason_and_lives_on_its_crawler():
    class Crawler:  # any object Scrapy's Crawler stands for: the ledger is an attribute on it
        pass

    first, second = Crawler(), Crawler()
    ledger = run_ledger(first)
    assert run_ledger(first) is ledger and run_ledger(second) is not ledger
    assert ledger.mark_incomplete("fetch_failed") and not ledger.mark_incomplete("cap_reached")
    assert decide_outcome(RunFacts("finished", ledger.incomplete_code, jobs_seen=3)).outcome == "incomplete:fetch_failed"
    assert RunLedger().exit_code == 0 and RunLedger().incomplete_code is None
