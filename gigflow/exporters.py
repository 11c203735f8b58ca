"""Feed exporters for `scrapy crawl ... -O items.csv|.jsonl|.json`: what we export is as safe to open as
`scrapy jobs --format ...` (gigflow.safety.display): CSV cells a spreadsheet would run as formulas are neutralised,
and JSON escapes bidi and C1 controls (``\\u202e``), so the data is intact but a terminal showing the file is not
steered by it. Registered in FEED_EXPORTERS."""

from __future__ import annotations

from scrapy.exporters import CsvItemExporter, JsonItemExporter, JsonLinesItemExporter
from scrapy.utils.serialize import ScrapyJSONEncoder

from gigflow.safety.display import json_display_safe, spreadsheet_cell


class SafeCsvItemExporter(CsvItemExporter):
    def _build_row(self, values):
        for value in super()._build_row(values):
            if isinstance(value, (int, float)) or value is None:
                yield value  # a number is a number, a negative one included
            else:
                yield spreadsheet_cell(value if isinstance(value, str) else str(value))


class _DisplaySafeEncoder(ScrapyJSONEncoder):
    def encode(self, o):
        return json_display_safe(super().encode(o))


class SafeJsonLinesItemExporter(JsonLinesItemExporter):
    def __init__(self, file, **kwargs):
        super().__init__(file, **kwargs)
        self.encoder = _DisplaySafeEncoder(**self._kwargs)


class SafeJsonItemExporter(JsonItemExporter):
    def __init__(self, file, **kwargs):
        super().__init__(file, **kwargs)
        self.encoder = _DisplaySafeEncoder(**self._kwargs)
