"""scrapy prepare PAGE.html --url URL [--source ID] [--filter FILTER.json] [--report] [--json]"""

from __future__ import annotations

import json
from pathlib import Path

from gigflow.commands import GigflowCommand, UsageError

CARD_STRATEGIES = ("href", "click", "sitemap")


class Command(GigflowCommand):
    def syntax(self):
        return "PAGE --url URL [--source ID] [--strategy TYPE] [--filter FILTER.json] [--report] [--json]"

    def short_desc(self):
        return "Print the Markdown gigflow stores for a saved page (the crawl's own preparation path)"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="the page's URL: links resolve against it (required)")
        parser.add_argument("--source", help="use this source's strategy (card rules) and its current noise filter")
        parser.add_argument("--strategy", choices=CARD_STRATEGIES,
                            help="which of the source's strategies to use (default: its first href/click/sitemap)")
        parser.add_argument("--filter", dest="filter_path", help="a NoiseFilter JSON file (overrides the source's)")
        parser.add_argument("--content-type", help="the HTTP Content-Type, when the bytes alone are ambiguous")
        parser.add_argument("--report", action="store_true", help="also print the preparation report")
        parser.add_argument("--json", action="store_true", help="print the whole PreparedDocument as JSON")

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError("give exactly one saved page")
        if not opts.url:
            raise UsageError("--url URL is required: links resolve against it")
        page = Path(args[0])
        if not page.is_file():
            return self.fail(f"no such file: {page}")
        try:
            strategy, noise_filter = self._source_context(opts)
        except (LookupError, ValueError, OSError) as exc:
            return self.fail(str(exc))

        from gigflow.documents import DocumentPreparer

        try:
            preparer = DocumentPreparer.from_settings(self.settings)
        except ValueError as exc:
            return self.fail(str(exc))
        document = preparer.prepare(page.read_bytes(), opts.url, content_type=opts.content_type,
                                  strategy=strategy, noise_filter=noise_filter)
        if opts.json:
            print(document.model_dump_json(indent=2))
            return
        print(document.markdown, end="")
        if opts.report:
            print("\n---\n" + format_report(document))
        if document.report.errors:
            self.exitcode = 1

    def _source_context(self, opts):
        from pydantic import ValidationError

        from gigflow.noise import NoiseFilter

        strategy = noise_filter = None
        if opts.source:
            from gigflow.noise.current import get_current_noise_filter
            from gigflow.sources.repository import get_source

            record = get_source(self.pool, opts.source)
            kinds = [opts.strategy] if opts.strategy else list(CARD_STRATEGIES)
            strategy = next((s for s in record.config.strategies if s.type in kinds), None)
            if opts.strategy and strategy is None:
                raise ValueError(f"source {opts.source!r} has no {opts.strategy!r} strategy")
            noise_filter = get_current_noise_filter(record.stored_config, record.config_hash)
        if opts.filter_path:
            try:
                noise_filter = NoiseFilter.model_validate(json.loads(Path(opts.filter_path).read_text("utf-8")))
            except (ValueError, ValidationError) as exc:
                raise ValueError(f"{opts.filter_path} is not a valid noise filter: {exc}") from None
        return strategy, noise_filter


def format_report(document) -> str:
    report = document.report
    lines = [f"format: {document.format}   title: {document.title or '-'}   links: {len(document.links)}",
             f"assets removed: {report.assets_removed}   links resolved: {report.links_resolved}"
             + (f"   base: {report.base_url}" if report.base_url else "")]
    for step in report.steps:
        where = " ".join(part for part in (step.selector and f"[{step.selector}]", step.path) if part)
        lines.append(f"{step.action:8} {step.rule:18} {where}  {step.reason}  ({step.text_length} chars)")
        if step.text:
            lines.append(f"         text: {step.text}")
    lines += [f"error: {error}" for error in report.errors]
    if report.review_requested:
        lines.append("noise filter review requested")
    return "\n".join(lines)
