"""The one place the review app reaches into the rest of gigflow, so a package move touches this file only.

Actions here call the same functions as the commands (`scrapy noise request`, the worker's race-safe save,
`scrapy sources promote|quarantine|restore|policy`), and reads of health and canonical jobs go through the
library functions `scrapy sources show` and `scrapy jobs --format` use, so the app never holds a rule of its own.
The pages' own reads are the store's (gigflow.store.review, with its rows): the app holds no SQL.
"""

from __future__ import annotations

from dataclasses import replace

from gigflow.documents.preparer import DocumentPreparer
from gigflow.health import lifecycle
from gigflow.health.report import health_label, overview, with_health
from gigflow.maintenance.export import canonical_jobs
from gigflow.noise.current import get_current_noise_filter
from gigflow.noise.learn.learner import SETTLED_CLASSIFIER
from gigflow.noise.learn.lifecycle.procedures import (
    SaveFilter, SelectSamples, configuration_state, save_filter, select_samples,
)
from gigflow.noise.learn.lifecycle.review import ReviewKind
from gigflow.noise.model import NoiseFilter, RemovalRule
from gigflow.noise.selectors import InvalidSelectorError, select
from gigflow.noise.learn.training import TrainingPage
from gigflow.sources.repository import UnknownSourceError
from gigflow.store import review  # noqa: F401 (the pages' reads: ui/data.py calls them through here)
from gigflow.store.review import (  # noqa: F401 (the rows the app's pages read, re-exported for them)
    CanonicalLinkRow, ConfigurationRow, JobEventRow, JobRow, RunRow, SampleVersionRow, SourceJobRow, SourceListRow,
    SourceRow,
)

MANUAL_CLASSIFIER = SETTLED_CLASSIFIER  # the learner keeps a flip saved with it as settled


def current_filter(pool, configuration_id: int, max_bytes: int) -> tuple[object, NoiseFilter | None]:
    """The configuration's state and its current (valid, same-hash) noise filter, as preparation sees it."""
    state = configuration_state(pool, configuration_id)
    return state, get_current_noise_filter(state.config, state.config_hash, max_bytes)


def sample_refs(pool, configuration_id: int) -> list:
    """The samples a review would use now (the latest HTML version of each URL of the active sources)."""
    return select_samples(pool, SelectSamples(configuration_id=configuration_id)).samples


def prepared_tree(body: bytes, url: str, content_type: str | None, strategy):
    """The tree the noise filter sees: assets (scripts included) out, links absolute, job cards out."""
    return TrainingPage(url=url, body=body, content_type=content_type, strategy=strategy).tree()


def select_regions(root, selector: str) -> list:
    try:
        return select(root, selector)
    except InvalidSelectorError:
        return []


def prepare_markdown(settings, body: bytes, url: str, content_type: str | None, strategy,
                     noise_filter: NoiseFilter | None) -> str:
    """The Markdown a crawl stores for this body, with or without the noise filter (the crawl's own path)."""
    return DocumentPreparer.from_settings(settings).prepare(body, url, content_type, strategy=strategy,
                                                           noise_filter=noise_filter).markdown


class ActionError(ValueError):
    """An action that could not be done, with the reason a person can act on."""


def flip_decision(pool, configuration_id: int, *, selector: str, signature: str, expected_token: int, note: str,
                  max_bytes: int, markdown_dir: str = "") -> tuple[str, int]:
    """Flip one learned rule (remove <-> keep) as a manual review, through the worker's race-safe save.

    The save refuses when anything moved since the page was shown (another review, a reset, a changed
    configuration): ``expected_token`` is the token the page was rendered with. Returns (new decision, token)."""
    state, noise_filter = current_filter(pool, configuration_id, max_bytes)
    if noise_filter is None:
        raise ActionError("this configuration has no current noise filter")
    rules = list(noise_filter.rules)
    index = next((i for i, r in enumerate(rules) if r.selector == selector and r.signature == signature), None)
    if index is None:
        raise ActionError(f"no rule {selector!r} with that signature in the current filter (reload the page)")
    old = rules[index]
    decision = "keep" if old.decision == "remove" else "remove"
    reason = f"manual review: {note.strip()}" if note.strip() else f"manual review: {old.decision} -> {decision}"
    rules[index] = old.model_copy(update={"decision": decision, "reason": reason[:500],
                                          "classifier": MANUAL_CLASSIFIER})
    saved = save_filter(pool, SaveFilter(configuration_id=configuration_id, expected_token=expected_token,
                                               noise_filter=noise_filter.model_copy(update={"rules": rules})))
    if not saved.saved:
        raise ActionError(f"not saved: {saved.conflict} (reload the page and try again)")
    from gigflow.maintenance.reprepare import reprepare_configuration

    # stored pages (and their Markdown files) take the changed filter now
    reprepare_configuration(pool, configuration_id, markdown_dir=markdown_dir)
    return decision, saved.token


def request_noise_review(pool, configuration_id: int) -> str:
    """What `scrapy noise request ID --manual` does."""
    from gigflow.noise.learn.lifecycle.queue import request_review

    configuration_state(pool, configuration_id)  # an unknown id fails here, clearly
    job_id = request_review(pool, configuration_id, ReviewKind.manual, reason="requested from the review app")
    return f"manual review requested (job {job_id})" if job_id else "a manual review is already waiting"


def sources_health(pool, rows: list[SourceListRow]) -> list[SourceListRow]:
    """The sources table's rows with each last run's outcome, health label and mean confidence (as `scrapy sources
    list` reads them: with_health works on its own dict rows)."""
    health = with_health(pool, [{"id": row.id} for row in rows])
    return [replace(row, last_outcome=found["last_outcome"], health=found["health"],
                    mean_confidence=found["mean_confidence"]) for row, found in zip(rows, health)]


def source_health(pool, source_id: str, runs: int, events: int) -> dict:
    """What `scrapy sources show` prints: status, policy review, recent runs' health and drift, history."""
    return overview(pool, source_id, runs=runs, events=events)


def run_health_label(outcome: str | None, drift: list | None) -> str:
    return health_label(outcome, drift)


def canonical_job(pool, canonical_id: int) -> dict | None:
    """One canonical job as `scrapy jobs --format json` exports it: sightings, link checks, quality parts."""
    rows = list(canonical_jobs(pool, canonical_id=canonical_id))  # consumed: the cursor closes here
    return rows[0] if rows else None


def _transition(pool, action, source_id: str, *args) -> tuple[str, str] | str | None:
    try:
        return action(pool, source_id, *args)
    except (lifecycle.TransitionError, UnknownSourceError) as exc:
        raise ActionError(str(exc)) from None


def promote_source(pool, source_id: str, reason: str) -> str:
    """`scrapy sources promote ID --reason TEXT`."""
    before, after = _transition(pool, lifecycle.promote, source_id, reason)
    return f"source {source_id}: {before} -> {after}"


def quarantine_source(pool, source_id: str, reason: str) -> str:
    """`scrapy sources quarantine ID --reason TEXT`."""
    before, after = _transition(pool, lifecycle.quarantine, source_id, reason)
    return f"source {source_id}: {before} -> {after}"


def restore_source(pool, source_id: str, reason: str) -> str:
    """`scrapy sources restore ID --reason TEXT`: a quarantined or drifting source goes back to trial."""
    before, after = _transition(pool, lifecycle.restore, source_id, reason)
    return f"source {source_id}: {before} -> {after}"


def record_policy_review(pool, source_id: str, note: str, settings) -> str:
    """`scrapy sources policy ID --reviewed --note TEXT` (a candidate may start its trial at once)."""
    from gigflow.maintenance.linkcheck import make_fetcher

    started, problems = _transition(pool, lifecycle.record_policy_review, source_id, note,
                                    lifecycle.LifecycleSettings.from_settings(settings),
                                    make_fetcher(pool, settings))
    return f"policy review recorded for {source_id}" + (f"; status now {started}" if started else "") + "".join(
        f"; robots.txt of {origin} not read ({why})" for origin, why in problems.items())


def _database_environment(settings) -> dict | None:
    """The environment of a child command: the app's DATABASE_URL setting as the child's GIGFLOW_DATABASE_URL (the
    environment, not its command line, where any user of the machine could read a password)."""
    import os

    url = settings.get("DATABASE_URL") or None
    return {**os.environ, "GIGFLOW_DATABASE_URL": url} if url else None


def try_source(target: str, pages: int, settings, *, timeout: float = 300.0) -> dict:
    """`scrapy sources try TARGET --json` in its own process (a crawl needs its own reactor): a URL, or a source
    file's text. Nothing of the real sources is touched (a scratch database). ActionError says what failed."""
    import json
    import os
    import subprocess
    import sys
    import tempfile

    target = target.strip()
    if not target:
        raise ActionError("paste a careers page URL or a source file (YAML or JSON)")
    overrides = []
    for name in ("FETCH_ALLOWED_PRIVATE_HOSTS", "FETCH_DENIED_HOSTS", "POLITENESS_MIN_INTERVAL"):
        value = settings.get(name)
        if isinstance(value, (list, tuple)):
            value = ",".join(map(str, value))
        if value not in (None, ""):
            overrides += ["-s", f"{name}={value}"]
    with tempfile.TemporaryDirectory(prefix="gigflow-try-") as folder:
        if not target.startswith(("http://", "https://")):
            path = os.path.join(folder, "sources.yaml")
            with open(path, "w", encoding="utf-8") as out:
                out.write(target)
            target = path
        try:
            done = subprocess.run([sys.executable, "-m", "scrapy", "sources", "try", target, "--json",
                                   "--pages", str(pages), *overrides], capture_output=True, text=True,
                                  timeout=timeout, env=_database_environment(settings))
        except subprocess.TimeoutExpired:
            raise ActionError(f"the try took longer than {timeout:.0f} s; try fewer pages") from None
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith("error:")]
        raise ActionError(errors[-1].removeprefix("error: ") if errors else
                          f"the try failed (exit {done.returncode}): {done.stderr.strip()[-300:]}")
    try:
        return json.loads(done.stdout)
    except ValueError:
        raise ActionError("the try printed no result") from None
