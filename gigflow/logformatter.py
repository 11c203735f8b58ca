"""Scrapy's log lines without item bodies: an item holds a page's Markdown, its jobs and raw payloads, and a
hostile page would put all of it (and anything it hides) into the log. Lines name the item by its URL."""

from __future__ import annotations

import logging

from scrapy import logformatter

from gigflow.safety.guard import redact_url


def _name(item) -> str:
    try:
        url = item.get("url")
    except Exception:
        url = None
    jobs = len(item.get("jobs") or []) if hasattr(item, "get") else 0
    return f"<{type(item).__name__} {redact_url(str(url))[:300]}, {jobs} jobs>"


class ItemFreeLogFormatter(logformatter.LogFormatter):
    def scraped(self, item, response, spider):
        entry = super().scraped(item, response, spider)
        return {**entry, "msg": "Scraped from %(src)s: %(item)s", "args": {**entry["args"], "item": _name(item)}}

    def dropped(self, item, exception, response, spider):
        return {"level": logging.WARNING, "msg": "Dropped %(item)s: %(exception)s",
                "args": {"item": _name(item), "exception": str(exception)[:500]}}

    def item_error(self, item, exception, response, spider):
        return {"level": logging.ERROR, "msg": "Error processing %(item)s: %(exception)s",
                "args": {"item": _name(item), "exception": f"{type(exception).__name__}: {str(exception)[:300]}"}}
