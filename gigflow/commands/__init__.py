"""Custom `scrapy` commands, registered as `scrapy.commands` entry points in pyproject.toml.

Commands are thin: parse arguments, call the library, print.
"""

from __future__ import annotations

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from gigflow.db.connection import DatabaseUnavailable
from gigflow.text_table import table


def _one_line_for_database_errors(previous):
    """A database that cannot be reached is the user's to fix, not a bug: one line naming the cause and the next
    step, no traceback (the interpreter still exits 1). Any other error keeps the usual report."""

    def hook(kind, value, tb):
        if isinstance(value, DatabaseUnavailable):
            import sys

            print(f"error: {value}", file=sys.stderr)
            return
        previous(kind, value, tb)

    hook.gigflow = True
    return hook


def install_error_hook() -> None:
    import sys

    if not getattr(sys.excepthook, "gigflow", False):
        sys.excepthook = _one_line_for_database_errors(sys.excepthook)


install_error_hook()  # imported by `scrapy` to find gigflow's commands, before any of them runs


class GigflowCommand(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def fail(self, message: str, code: int = 2) -> None:
        import sys

        print(f"error: {message}", file=sys.stderr)
        self.exitcode = code


__all__ = ["GigflowCommand", "UsageError", "table"]
