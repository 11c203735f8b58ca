"""Feed exporters for `scrapy crawl ... -O items.csv`: the CSV of our items is as safe to open in a spreadsheet as
`scrapy jobs --format csv` (gigflow.safety.display). Registered in FEED_EXPORTERS."""

from __future__ import annotations

from scrapy.exporters import CsvItemExporter

from gigflow.safety.display import spreadsheet_cell


class SafeCsvItemExporter(CsvItemExporter):
    def _build_row(self, values):
        for value in super()._build_row(values):
            if isinstance(value, (int, float)) or value is None:
                yield value  # a number is a number, a negative one included
            else:
                yield spreadsheet_cell(value if isinstance(value, str) else str(value))
