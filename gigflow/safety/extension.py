"""Secrets never reach a log line: a filter on the root log handlers redacts userinfo (``user:password@``) in every
URL and the value of every header, setting or parameter that names a secret (``Authorization``, ``Cookie``,
``password=``, ``?token=``) in every record, Scrapy's own lines included (a request URL with credentials, a
redirect Location, the "Overridden settings" line with DEFAULT_REQUEST_HEADERS).

Installed when the spider opens, because Scrapy replaces the root handler after extensions are built.
"""

from __future__ import annotations

import logging

from scrapy import signals

from gigflow.safety.guard import redact_secrets


class CredentialsFilter(logging.Filter):
    """Formats the record's message once, redacted, so arguments cannot bring a password back."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string is the logging module's to report
            return True
        redacted = redact_secrets(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


class RedactCredentials:
    def __init__(self):
        self.filter = CredentialsFilter()

    @classmethod
    def from_crawler(cls, crawler):
        extension = cls()
        crawler.signals.connect(extension.install, signal=signals.spider_opened)
        extension.install()
        return extension

    def install(self, spider=None) -> None:
        for handler in logging.getLogger().handlers:
            if self.filter not in handler.filters:
                handler.addFilter(self.filter)
