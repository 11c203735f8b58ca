"""What `scrapy sources list` and `scrapy sources show` print about a source's health: library functions, so
the review app can show the same."""

from __future__ import annotations

from dataclasses import asdict

from gigflow.sources.extension import hint_from_stats
from gigflow.health import SCRIPT_RENDERED, queries
from gigflow.health.lifecycle import recent_runs, source_state
from gigflow.sources import repository


def health_label(outcome: str | None, drift: list | None, script_rendered: str | None = None) -> str:
    if outcome is None:
        return "never run"
    if drift:
        return "drifting: " + ", ".join(d["detector"] for d in drift)
    if script_rendered:  # a finished run that found no job on a listing only a browser can read
        return "no job: listing rendered by JavaScript (use click)"
    return "ok" if outcome == "finished" else outcome.removeprefix("incomplete:")


def with_health(pool, rows: list[dict]) -> list[dict]:
    """``rows`` from list_sources, each with its last run's outcome, health label and mean confidence."""
    if not rows:
        return rows
    with pool.connection() as conn:
        last = {run.source_id: run for run in queries.list_health(conn, [row["id"] for row in rows])}
    for row in rows:
        run = last.get(row["id"])
        row["last_outcome"] = run.outcome if run else None
        row["health"] = health_label(run.outcome, run.drift, run.script_rendered) if run else health_label(None, None)
        row["mean_confidence"] = float(run.mean_confidence) if run and run.mean_confidence else None
    return rows


def overview(pool, source_id: str, runs: int = 5, events: int = 10) -> dict:
    state = source_state(pool, source_id)
    with pool.connection() as conn:
        history = repository.status_events(conn, source_id, events)
    recent = recent_runs(pool, source_id, runs)
    return {
        "id": source_id, "status": state.status, "reason": state.status_reason,
        "configuration_id": state.configuration_id, "next_crawl_at": state.next_crawl_at,
        "policy": {"reviewed_at": state.policy_reviewed_at, "by": state.policy_reviewed_by,
                   "note": state.policy_note},
        "runs": [{"id": r.id, "spider": r.spider, "outcome": r.outcome, "finished_at": r.finished_at,
                  "health": {k: v for k, v in (r.health or {}).items() if k not in ("job_links", "churn")},
                  "drift": r.drift or [],
                  "script_rendered": (r.stats or {}).get(SCRIPT_RENDERED)} for r in recent],
        "history": [asdict(event) for event in history],  # a view for JSON and the review app's page
        # The newest run that found its jobs on one known ATS board (an HTML crawl): switch to the ats strategy.
        "ats_hint": next((hint for hint in (hint_from_stats(r.stats) for r in recent) if hint), None),
    }
