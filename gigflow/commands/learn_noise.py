"""scrapy learn-noise --configuration ID | --source ID [--manual] [--classifier openai|rules|auto] [--dry-run]
scrapy learn-noise --preview SOURCE [--classifier openai|rules|auto]
scrapy learn-noise --page FILE URL (3 to 6 times) --out FILTER.json [--current FILTER.json] [--manual]"""

from __future__ import annotations

import json
from pathlib import Path

from typing import TYPE_CHECKING

from gigflow.commands import GigflowCommand, UsageError

if TYPE_CHECKING:
    from gigflow.noise.model import NoiseFilter


class Command(GigflowCommand):
    def syntax(self):
        return "--configuration ID | --source ID | --preview SOURCE | --page FILE URL ... --out FILTER.json"

    def short_desc(self):
        return "Learn a noise filter from 3 to 6 stored or saved vacancy pages of one site"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--configuration", type=int, help="learn from this configuration's stored versions")
        parser.add_argument("--source", help="learn for this source's configuration (instead of --configuration)")
        parser.add_argument("--preview", metavar="SOURCE",
                            help="learn from this source's stored versions (any status) and show what would be "
                                 "removed and kept; save nothing")
        parser.add_argument("--page", nargs=2, action="append", metavar=("FILE", "URL"), default=[],
                            help="a saved page and its URL (give 3 to 6)")
        parser.add_argument("--out", help="write the filter here (with --page)")
        parser.add_argument("--current", help="the current filter to reuse approved rules from (with --page)")
        parser.add_argument("--manual", action="store_true", help="review everything again; use no previous decisions")
        parser.add_argument("--classifier", choices=["openai", "rules", "auto"], default=None,
                            help="openai (GIGFLOW_NOISE_MODEL), rules (offline), auto (default: NOISE_CLASSIFIER)")
        parser.add_argument("--dry-run", action="store_true", help="learn and report, save nothing")

    def run(self, args, opts):
        if opts.source and opts.configuration is None:
            from gigflow.sources.repository import UnknownSourceError, get_source

            try:
                opts.configuration = get_source(self.pool, opts.source).configuration_id
            except (UnknownSourceError, ValueError) as exc:
                return self.fail(str(exc))
        if args or sum((opts.configuration is not None, bool(opts.page), opts.preview is not None)) != 1:
            raise UsageError("give one of --configuration ID, --source ID, --preview SOURCE or --page FILE URL (3 to 6 times)")
        # Learning is imported when it runs: scrapy imports every command module at start-up, whichever runs.
        from gigflow.noise.learn.classifier import make_classifier
        from gigflow.noise.learn.learner import NoiseLearningError
        from gigflow.noise.learn.settings import NoiseSettings

        settings = NoiseSettings.from_settings(self.settings)
        try:
            classifier = make_classifier(opts.classifier or settings.classifier, settings)
            if opts.preview is not None:
                self._preview(opts, settings)
            elif opts.page:
                self._from_files(opts, settings, classifier)
            else:
                self._from_configuration(opts, settings, classifier)
        except (NoiseLearningError, ValueError, OSError, LookupError) as exc:
            self.fail(str(exc), code=1)

    def _from_files(self, opts, settings, classifier):
        from gigflow.noise.learn.learner import learn_noise_filter
        from gigflow.noise.learn.reporting import render_report
        from gigflow.noise.learn.training import TrainingPage

        if not opts.out and not opts.dry_run:
            raise UsageError("--page needs --out FILTER.json (or --dry-run)")
        samples = [TrainingPage(url=url, body=Path(path).read_bytes(), source_id=f"file:{Path(path).name}")
                   for path, url in opts.page]
        current = _read_filter(opts.current) if opts.current else None
        config_hash = current.config_hash if current else ""
        result = learn_noise_filter(samples, current, classifier, config_hash=config_hash, settings=settings,
                                    manual=opts.manual)
        print(render_report(result.report))
        if not opts.dry_run:
            Path(opts.out).write_text(result.filter.model_dump_json(indent=2) + "\n", encoding="utf-8")
            print(f"wrote {opts.out} ({len(result.filter.removal_rules())} removal rule(s))")

    def _preview(self, opts, settings):
        from gigflow.noise.learn.lifecycle.preview import preview_source, render_preview

        preview = preview_source(self.pool, opts.preview, settings, opts.classifier,
                                 max_filter_bytes=self.settings.getint("NOISE_FILTER_MAX_BYTES"))
        print(render_preview(preview))
        if not preview.learned:
            self.exitcode = 1

    def _from_configuration(self, opts, settings, classifier):
        """The same review the queue's worker runs (samples, validation, race-safe save), started by hand."""
        from gigflow.noise.learn.lifecycle.review_learner import make_learner
        from gigflow.commands.noise import reprepare_after_save
        from gigflow.noise.learn.lifecycle.review import ReviewKind, run_review
        from gigflow.noise.learn.reporting import render_report

        kind = ReviewKind.manual if opts.manual else ReviewKind.command
        outcome = run_review(self.pool, opts.configuration, kind,
                             make_learner(settings, opts.classifier or settings.classifier),
                             max_filter_bytes=self.settings.getint("NOISE_FILTER_MAX_BYTES"), save=not opts.dry_run,
                             after_save=reprepare_after_save(self.pool, self.settings))
        if outcome.learner_report is not None:
            print(render_report(outcome.learner_report))
        if outcome.status == "saved":
            print(f"saved noiseFilter into configuration {opts.configuration} ({outcome.rules} removal rule(s))")
            if outcome.reprepared:
                print("stored versions prepared again: {reprepared} of {versions} changed, {reextracted} job(s) "
                      "re-extracted".format(**outcome.reprepared))
        elif outcome.status == "conflict":
            self.fail(f"not saved: {outcome.detail}", code=1)
        elif outcome.status == "dry-run":
            print("dry run: nothing saved")
        else:
            print(f"{outcome.status}: {outcome.detail}" + (
                self._why_no_samples(self.pool, opts.configuration) if outcome.status == "skipped" else ""))

    @staticmethod
    def _why_no_samples(pool, configuration_id: int) -> str:
        """Samples come from the configuration's active sources only: say so when it has none."""
        from gigflow.sources.repository import configuration_source_statuses

        rows = configuration_source_statuses(pool, configuration_id)
        if any(r.status == "active" for r in rows):
            return ""
        listed = ", ".join(f"{r.id} ({r.status})" for r in rows) or "none"
        return (f"; samples are read from the configuration's active sources only, and it has none (sources: "
                f"{listed}); a trial source becomes active after SOURCE_TRIAL_RUNS complete runs "
                f"(see `scrapy sources show ID`)")


def _read_filter(path: str) -> NoiseFilter:
    from pydantic import ValidationError

    from gigflow.noise.model import NoiseFilter

    try:
        return NoiseFilter.model_validate(json.loads(Path(path).read_text(encoding="utf-8")))
    except (json.JSONDecodeError, ValidationError) as exc:
        raise ValueError(f"{path} is not a valid noise filter: {str(exc).splitlines()[0]}") from exc
