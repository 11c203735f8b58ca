"""Source status transitions: by a person (commands, with a reason) and automatic (with the figures they rest
on), each recorded in source_status_events.

candidate -> trial: a person recorded the policy/terms review and robots.txt allows every listing URL.
trial -> active: SOURCE_TRIAL_RUNS complete runs since the trial began, each with mean confidence at least
SOURCE_PROMOTION_MIN_CONFIDENCE, no refused (private or denied) redirect, no volume spike, policy still valid.
any -> drifting: a run with drift; a later complete run without drift returns the source to its former status.
any -> quarantined: SOURCE_QUARANTINE_AFTER troubled runs in a row (drift or a bot challenge), or by a person;
back to trial only by a person (restore) or an applied repair."""

from __future__ import annotations

import getpass
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

from gigflow import keys
from gigflow.health import queries
from gigflow.health.queries import RecentRun
from gigflow.middlewares.robots import lookup_robots
from gigflow.runs.decide import ANTI_BOT
from gigflow.sources import repository
from gigflow.sources.config import SourceStatus
from gigflow.sources.repository import SourceState, UnknownSourceError, set_status

REFUSED_STATS = keys.REFUSED
ORDER = [SourceStatus.candidate, SourceStatus.trial, SourceStatus.active]


class TransitionError(ValueError):
    """A transition the source's state does not allow; the message says what to do instead."""


@dataclass(frozen=True)
class LifecycleSettings:
    trial_runs: int = 3
    min_confidence: float = 0.6
    quarantine_after: int = 3
    policy_valid_days: float = 365.0
    volume_factor: float = 2.0
    robots_ttl: float = 86400.0
    user_agent: str = "gigflow"
    max_crawl_delay: float = 120.0

    @classmethod
    def from_settings(cls, settings) -> "LifecycleSettings":
        return cls(settings.getint("SOURCE_TRIAL_RUNS"), settings.getfloat("SOURCE_PROMOTION_MIN_CONFIDENCE"),
                   settings.getint("SOURCE_QUARANTINE_AFTER"), settings.getfloat("SOURCE_POLICY_VALID_DAYS"),
                   settings.getfloat("HEALTH_DRIFT_VOLUME_FACTOR"), settings.getfloat("ROBOTS_CACHE_TTL"),
                   settings.get("USER_AGENT"), settings.getfloat("ROBOTS_MAX_CRAWL_DELAY"))


def person() -> str:
    try:
        return f"person:{getpass.getuser()}"
    except (KeyError, OSError):
        return "person"


def source_state(pool, source_id: str) -> SourceState:
    with pool.connection() as conn:
        state = repository.source_state(conn, source_id)
    if state is None:
        raise UnknownSourceError(f"unknown source {source_id!r} (see `scrapy sources list`)")
    return state


def recent_runs(pool, source_id: str, limit: int) -> list[RecentRun]:
    """The source's latest ``limit`` finished runs (every strategy), newest first, with health and drift."""
    with pool.connection() as conn:
        return queries.recent_runs(conn, source_id, limit)


# -- by a person ---------------------------------------------------------------------------------------------

def _need_reason(reason: str | None) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise TransitionError("--reason TEXT is required: say why, it is kept in the source's history")
    return reason[:1000]


def promote(pool, source_id: str, reason: str | None) -> tuple[str, str]:
    """One step up: candidate -> trial -> active; drifting -> its former status. Leaving candidate needs the
    policy review; a quarantined source comes back only by restore."""
    reason = _need_reason(reason)
    state = source_state(pool, source_id)
    status = SourceStatus(state.status)
    if status == SourceStatus.quarantined:
        raise TransitionError(f"source {source_id!r} is quarantined ({state.status_reason}); repair it, then "
                              f"`scrapy sources restore {source_id} --reason TEXT`")
    if status == SourceStatus.active:
        raise TransitionError(f"source {source_id!r} is already active")
    if status == SourceStatus.candidate and not state.policy_reviewed_at:
        raise TransitionError(f"source {source_id!r} has no policy/terms review yet: record it first with "
                              f"`scrapy sources policy {source_id} --reviewed --note TEXT`")
    target = (SourceStatus(state.status_before_drift or "trial") if status == SourceStatus.drifting
              else ORDER[ORDER.index(status) + 1])
    set_status(pool, source_id, target, reason, actor=person())
    return status.value, target.value


def quarantine(pool, source_id: str, reason: str | None) -> tuple[str, str]:
    reason = _need_reason(reason)
    state = source_state(pool, source_id)
    set_status(pool, source_id, SourceStatus.quarantined, reason, actor=person())
    return state.status, SourceStatus.quarantined.value


def restore(pool, source_id: str, reason: str | None) -> tuple[str, str]:
    """A quarantined or drifting source goes back to trial, to earn active again."""
    reason = _need_reason(reason)
    state = source_state(pool, source_id)
    if state.status not in (SourceStatus.quarantined, SourceStatus.drifting):
        raise TransitionError(f"source {source_id!r} is {state.status}, not quarantined or drifting: nothing "
                              f"to restore")
    set_status(pool, source_id, SourceStatus.trial, reason, actor=person())
    return state.status, SourceStatus.trial.value


def record_policy_review(pool, source_id: str, note: str | None, settings: LifecycleSettings,
                         fetcher=None) -> tuple[str | None, dict[str, str]]:
    """A person's policy/terms review. Returns the new status when the source could start its trial now (else
    None) and {origin: why its robots.txt could not be read}.
    With a ``fetcher`` (gigflow.maintenance.linkcheck.Fetcher: guarded and polite), the robots.txt of each
    listing origin without a fresh shared copy is read once first, so a reviewed candidate starts at once."""
    note = (note or "").strip()
    if not note:
        raise TransitionError("--note TEXT is required: what was reviewed (terms, robots.txt, contact) and why "
                              "it allows crawling")
    with pool.connection() as conn:
        if not repository.record_policy_review(conn, source_id, person(), note[:2000]):
            raise UnknownSourceError(f"unknown source {source_id!r} (see `scrapy sources list`)")
    problems = {}
    if fetcher is not None:
        problems = read_missing_robots(pool, listing_urls(source_state(pool, source_id).strategies), settings,
                                       fetcher)
    return start_trial_if_allowed(pool, source_id, settings), problems


def read_missing_robots(pool, urls: list[str], settings: LifecycleSettings, fetcher) -> dict[str, str]:
    """Read (one GET each) the robots.txt of every origin among ``urls`` whose shared copy is missing or old,
    and store it as a crawl would. Returns {origin: why it could not be read} for those that failed."""
    import http.client

    from gigflow.middlewares.robots import RobotsRecord, store_robots
    from gigflow.safety.guard import UnsafeURL

    problems = {}
    for origin in dict.fromkeys(f"{p.scheme}://{p.netloc}" for p in map(urlsplit, urls)):
        if lookup_robots(pool, origin, settings.robots_ttl) is not None:
            continue
        try:
            status, text = fetcher.read(f"{origin}/robots.txt")
        except UnsafeURL as exc:
            problems[origin] = exc.reason
            continue
        except (OSError, http.client.HTTPException) as exc:
            problems[origin] = f"{exc.__class__.__name__}: {exc}"[:300]
            continue
        except Exception as exc:  # KeyBusy: the site's politeness key stayed busy; a crawl reads it later
            problems[origin] = str(exc)[:300]
            continue
        if status >= 500:  # RFC 9309: assume everything disallowed; not stored, asked again by the next crawl
            problems[origin] = f"robots.txt answered HTTP {status}"
            continue
        record = RobotsRecord(origin, status, text if status < 300 else "")
        parser = record.parser()
        delay = parser.crawl_delay(settings.user_agent) if parser is not None else None
        store_robots(pool, record, fetcher.policies.for_host(urlsplit(origin).hostname or "").key,
                     min(float(delay), settings.max_crawl_delay) if delay else None)
    return problems


# -- automatic --------------------------------------------------------------------------------------------------

def listing_urls(strategies: list[dict]) -> list[str]:
    urls = []
    for strategy in strategies:
        urls += strategy.get("listing_urls") or []
        urls += [strategy["listing_url"]] if strategy.get("listing_url") else []
        urls += strategy.get("feed_urls") or []
        urls += strategy.get("sitemap_urls") or []
    return urls


def robots_verdict(pool, urls: list[str], settings: LifecycleSettings) -> tuple[bool | None, dict]:
    """True when every listing URL's robots.txt (the shared cached copy) allows it; None when a copy is
    missing (the next crawl reads it); False with the refused URL."""
    figures = {}
    for url in urls:
        parts = urlsplit(url)
        record = lookup_robots(pool, f"{parts.scheme}://{parts.netloc}", settings.robots_ttl)
        if record is None:
            return None, {"missing_robots": f"{parts.scheme}://{parts.netloc}"}
        parser = record.parser()
        allowed = parser is None or parser.can_fetch(url, settings.user_agent)
        figures[url] = {"robots_status": record.http_status, "allowed": allowed}
        if not allowed:
            return False, figures
    return True, figures


def start_trial_if_allowed(pool, source_id: str, settings: LifecycleSettings) -> str | None:
    state = source_state(pool, source_id)
    if state.status != SourceStatus.candidate or not state.policy_reviewed_at:
        return None
    allowed, figures = robots_verdict(pool, listing_urls(state.strategies), settings)
    if not allowed:
        return None
    evidence = {"policy_reviewed_at": state.policy_reviewed_at.isoformat(),
                "policy_reviewed_by": state.policy_reviewed_by, "robots": figures}
    set_status(pool, source_id, SourceStatus.trial, "policy reviewed and robots.txt allows the listing",
               evidence=evidence)
    return SourceStatus.trial.value


def activate_if_earned(pool, source_id: str, state: SourceState, settings: LifecycleSettings) -> str | None:
    since = state.status_since
    runs = [r for r in recent_runs(pool, source_id, 50) if since is None or r.finished_at > since]
    complete = [r for r in runs if r.outcome == "finished" and r.complete][:settings.trial_runs]
    if len(complete) < settings.trial_runs:
        return None
    figures = [{"run_id": r.id, "jobs": (r.health or {}).get("jobs"),
                "mean_confidence": (r.health or {}).get("mean_confidence")} for r in complete]
    refused = [r.id for r in runs if any((r.stats or {}).get(k) for k in REFUSED_STATS)]
    volumes = [f["jobs"] or 0 for f in figures]
    reviewed = state.policy_reviewed_at
    if (refused or any((f["mean_confidence"] or 0) < settings.min_confidence for f in figures)
            or min(volumes) == 0 or max(volumes) > min(volumes) * settings.volume_factor
            or reviewed is None
            or datetime.now(timezone.utc) - reviewed > timedelta(days=settings.policy_valid_days)):
        return None
    evidence = {"runs": figures, "min_confidence": settings.min_confidence, "refused_redirects": 0,
                "policy_reviewed_at": reviewed.isoformat()}
    set_status(pool, source_id, SourceStatus.active,
               f"{len(complete)} complete trial runs, mean confidence >= {settings.min_confidence}", evidence=evidence)
    return SourceStatus.active.value


def troubled(run: RecentRun) -> bool:
    """A run that counts toward quarantine: it met a bot challenge or showed drift."""
    return run.outcome == ANTI_BOT or bool(run.drift)


def after_run(pool, source_id: str, outcome: str, settings: LifecycleSettings, *, drifted: bool = False) -> str | None:
    """The transition a finalized run calls for, if any; returns the new status."""
    state = source_state(pool, source_id)
    status = state.status
    if status == SourceStatus.quarantined:
        return None
    runs = recent_runs(pool, source_id, settings.quarantine_after)
    if outcome == ANTI_BOT or drifted:
        streak = []
        for run in runs:
            if not troubled(run):
                break
            streak.append(run)
        reasons = [_run_reason(run) for run in streak]
        if len(streak) >= settings.quarantine_after:
            set_status(pool, source_id, SourceStatus.quarantined,
                       f"{len(streak)} troubled runs in a row: {' | '.join(reasons)}"[:1000],
                       evidence={"runs": [r.id for r in streak]})
            return SourceStatus.quarantined.value
        if drifted and status != SourceStatus.drifting:
            set_status(pool, source_id, SourceStatus.drifting, reasons[0][:1000] if reasons else "drift",
                       evidence={"run_id": runs[0].id if runs else None,
                                 "drift": (runs[0].drift if runs else None)})
            return SourceStatus.drifting.value
        return None
    if outcome != "finished":
        return None
    if status == SourceStatus.drifting:
        back = SourceStatus(state.status_before_drift or "trial")
        if back in (SourceStatus.drifting, SourceStatus.quarantined):
            back = SourceStatus.trial
        set_status(pool, source_id, back, "a complete run without drift", evidence={"run_id": runs[0].id})
        return back.value
    if status == SourceStatus.candidate:
        return start_trial_if_allowed(pool, source_id, settings)
    if status == SourceStatus.trial:
        return activate_if_earned(pool, source_id, state, settings)
    return None


def _run_reason(run: RecentRun) -> str:
    if run.outcome == ANTI_BOT:
        return f"run {run.id}: bot challenge ({(run.stats or {}).get(keys.ANTI_BOT_KIND, 'unknown')})"
    drift = run.drift or []
    return f"run {run.id}: " + ("; ".join(d["reason"] for d in drift) or "drift")
