"""scrapy extract FILE --url URL [--parser KEY] [--content-type TYPE] [--company NAME] [--fetched-at ISO]"""

from __future__ import annotations

import mimetypes
from datetime import datetime, timezone
from pathlib import Path

from gigflow.commands import GigflowCommand, UsageError


class Command(GigflowCommand):
    requires_project = False

    def syntax(self):
        return "FILE --url URL [--parser KEY] [--content-type TYPE] [--company NAME] [--fetched-at ISO]"

    def short_desc(self):
        return "Run the adapter chain on a saved page, payload, feed or .eml and print the ExtractionResult as JSON"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", required=True, help="the URL the content was fetched from")
        parser.add_argument("--parser", dest="parser_key", default=None,
                            help="parser key: jsonld, generic-html, greenhouse, lever, recruitee, smartrecruiters, "
                                 "workable, feed, email[:board-domain], route:NAME")
        parser.add_argument("--content-type", default=None,
                            help="media type as the server sent it (default: guessed from the file name)")
        parser.add_argument("--raw", action="store_true", help="include each job's bounded raw payload")
        parser.add_argument("--company", default=None, help="the source's company: the employer of last resort")
        parser.add_argument("--fetched-at", default=None,
                            help="when the content was fetched (ISO 8601; default now); relative dates count from it")

    def run(self, args, opts):
        # Imported here: scrapy imports every command module at start-up, whichever command runs.
        from gigflow.adapters import extract
        from gigflow.safety.guard import FetchGuard

        if len(args) != 1:
            raise UsageError("give exactly one FILE")
        path = Path(args[0])
        if not path.is_file():
            self.fail(f"{path}: no such file")
            return
        content_type = opts.content_type
        if content_type is None and path.suffix.lower() in (".json", ".xml", ".rss", ".atom", ".eml"):
            content_type = {".eml": "message/rfc822", ".rss": "application/rss+xml",
                            ".atom": "application/atom+xml"}.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
        try:
            fetched_at = datetime.fromisoformat(opts.fetched_at) if opts.fetched_at else datetime.now(timezone.utc)
        except ValueError:
            self.fail(f"--fetched-at {opts.fetched_at!r}: not an ISO 8601 date or time")
            return
        result = extract(path.read_bytes(), url=opts.url, content_type=content_type, parser_key=opts.parser_key,
                         company=opts.company, fetched_at=fetched_at, url_guard=FetchGuard.from_settings(self.settings),
                         max_html_bytes=self.settings.getint("EXTRACTION_MAX_HTML_BYTES"))
        exclude = None if opts.raw else {"jobs": {"__all__": {"raw"}}}
        print(result.model_dump_json(indent=2, exclude=exclude))
