"""Custom `scrapy` commands, registered as `scrapy.commands` entry points in pyproject.toml.

Commands are thin: parse arguments, call the library, print.
"""

from __future__ import annotations

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from gigflow.text_table import table


class GigflowCommand(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def fail(self, message: str, code: int = 2) -> None:
        import sys

        from gigflow.safety.display import display_safe
        from gigflow.safety.guard import redact_secrets

        # A message may quote what the user or a page gave: no password, no terminal escapes.
        print(f"error: {display_safe(redact_secrets(str(message)))}", file=sys.stderr)
        self.exitcode = code


__all__ = ["GigflowCommand", "UsageError", "table"]
