"""scrapy noise worker|request|reset|samples|reconcile|show — the noise filter lifecycle by hand."""

from __future__ import annotations

import json

from gigflow.commands import GigflowCommand, UsageError

# The lifecycle is imported by each action when it runs: scrapy imports every command module at start-up.

ACTIONS = ("worker", "request", "reset", "samples", "reconcile", "show")


class Command(GigflowCommand):
    def syntax(self):
        return "worker [--once] | request CONFIGURATION [--manual] | reset CONFIGURATION | samples CONFIGURATION" \
               " | reconcile | show CONFIGURATION [--text]"

    def short_desc(self):
        return "Noise filter lifecycle: run the review worker, request, reset, inspect"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--once", action="store_true", help="worker: process waiting jobs, then exit")
        parser.add_argument("--manual", action="store_true", help="request: a manual review (own job id, no limit)")
        parser.add_argument("--text", action="store_true",
                            help="show: list each removed region's text (shortened) with its rule and reason")

    def run(self, args, opts):
        if not args or args[0] not in ACTIONS:
            raise UsageError(f"choose one of: {', '.join(ACTIONS)}")
        action, rest = args[0], args[1:]
        if action in ("worker", "reconcile"):
            if rest:
                raise UsageError()
            return getattr(self, action)(opts)
        if len(rest) != 1 or not rest[0].isdigit():
            raise UsageError(f"{action} takes one configuration id")
        try:
            getattr(self, action)(int(rest[0]), opts)
        except LookupError as exc:
            self.fail(str(exc))

    def worker(self, opts):
        from gigflow.noise.learn.lifecycle.review_learner import make_learner
        from gigflow.noise.learn.lifecycle.queue import ReviewRuntime, run_worker
        from gigflow.noise.learn.settings import NoiseSettings

        from scrapy.utils.log import configure_logging

        s = self.settings
        # Only the worker logs: its structured events are what an operator watches.
        configure_logging({"LOG_ENABLED": True, "LOG_LEVEL": s.get("LOG_LEVEL", "INFO")})
        from gigflow.safety.extension import RedactCredentials

        RedactCredentials().install()  # no secret in a log line
        runtime = ReviewRuntime(pool=self.pool, learner=make_learner(NoiseSettings.from_settings(s)),
                                cycle_seconds=s.getfloat("NOISE_REVIEW_CYCLE_SECONDS"),
                                max_deferral_seconds=s.getfloat("NOISE_REVIEW_MAX_DEFERRAL_SECONDS"),
                                max_filter_bytes=s.getint("NOISE_FILTER_MAX_BYTES"),
                                stalled_seconds=s.getfloat("NOISE_WORKER_STALLED_SECONDS"),
                                after_save=reprepare_after_save(self.pool, s))
        run_worker(self.database_url, runtime, once=opts.once, concurrency=s.getint("NOISE_WORKER_CONCURRENCY"))

    def request(self, configuration_id, opts):
        from gigflow.noise.learn.lifecycle.procedures import configuration_state
        from gigflow.noise.learn.lifecycle.queue import request_review
        from gigflow.noise.learn.lifecycle.review import ReviewKind

        configuration_state(self.pool, configuration_id)  # unknown ids fail here, clearly
        kind = ReviewKind.manual if opts.manual else ReviewKind.scheduled
        job_id = request_review(self.pool, configuration_id, kind, reason="requested from the command line")
        print(f"{kind.value} review requested (job {job_id})" if job_id else
              f"a {kind.value} review for configuration {configuration_id} is already waiting")

    def reset(self, configuration_id, opts):
        from gigflow.noise.events import emit
        from gigflow.noise.learn.lifecycle.procedures import ResetFilter, reset_filter

        result = reset_filter(self.pool, ResetFilter(configuration_id=configuration_id))
        emit("filter_reset", configuration_id, had_filter=result.had_filter, token=result.token)
        print(f"reset configuration {configuration_id}: {'filter removed' if result.had_filter else 'no filter'};"
              f" token now {result.token}")

    def samples(self, configuration_id, opts):
        from gigflow.noise.learn.lifecycle.procedures import MIN_SAMPLES, SelectSamples, select_samples

        selected = select_samples(self.pool, SelectSamples(configuration_id=configuration_id))
        for sample in selected.samples:
            print(f"{sample.source_version_id:>8}  {sample.sha256[:12]}  {sample.source_id}  {sample.url}")
        for reason in selected.skipped:
            print(f"  skipped: {reason}")
        print(f"{len(selected.samples)} usable sample(s); learning needs {MIN_SAMPLES}" if not selected.usable
              else f"{len(selected.samples)} usable samples")

    def reconcile(self, opts):
        from gigflow.noise.learn.lifecycle.queue import reconcile_all

        print(f"requested {reconcile_all(self.pool)} scheduled review(s)")

    def show(self, configuration_id, opts):
        from gigflow.noise.current import get_current_noise_filter
        from gigflow.noise.learn.lifecycle.procedures import configuration_state

        state = configuration_state(self.pool, configuration_id)
        current = get_current_noise_filter(state.config, state.config_hash,
                                           self.settings.getint("NOISE_FILTER_MAX_BYTES"))
        if opts.text:
            print(removed_text(configuration_id, current))
            return
        print(json.dumps({"configuration_id": configuration_id, "token": state.token,
                          "config_hash": state.config_hash,
                          "noiseFilter": current.model_dump(mode="json") if current else None,
                          "noiseReview": state.config.get("noiseReview")}, indent=2, default=str))


def removed_text(configuration_id: int, current) -> str:
    """What the current filter removes: one entry per removal rule, its region's text (shortened), rule, reason."""
    if current is None:
        return f"configuration {configuration_id}: no current noise filter"
    rules = current.removal_rules()
    lines = [f"configuration {configuration_id}: {len(rules)} region(s) removed by the filter "
             f"(fingerprint {current.fingerprint()}, learned {current.completed_at or '-'})"]
    for rule in rules:
        lines.append(f"- {rule.selector}  [{rule.classifier}] {rule.reason}")
        lines.append(f"  text: {rule.text}" if rule.text else "  text: (not recorded when learned; review again)")
    return "\n".join(lines)


def reprepare_after_save(pool, settings):
    """What runs after a review saved a filter: the configuration's stored versions prepared again with it."""
    from gigflow.documents.preparer import DocumentPreparer
    from gigflow.maintenance.reprepare import reprepare_configuration

    def after_save(configuration_id: int) -> dict:
        return reprepare_configuration(pool, configuration_id,
                                       preparer=DocumentPreparer.from_settings(settings),
                                       max_filter_bytes=settings.getint("NOISE_FILTER_MAX_BYTES"),
                                       markdown_dir=settings.get("MARKDOWN_DIR", ""))
    return after_save
