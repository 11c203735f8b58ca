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
    # Most commands read and write the database and never crawl: no crawler process, which would import every
    # spider (and through them the adapters and the browser middleware) before the command runs. A command that
    # crawls says so (schedule-due lists the spiders; sources try and discover set it in process_options).
    requires_crawler_process = False

    def process_options(self, args, opts):
        super().process_options(args, opts)
        if not self.requires_crawler_process:
            from scrapy.utils.log import configure_logging

            # What the crawler process would have done first: Scrapy's logging set-up (with LOG_ENABLED off, a
            # silent root handler, and Python's warnings through logging).
            configure_logging(self.settings)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "run" in cls.__dict__:
            cls.run = _quiet_on_broken_pipe(cls.__dict__["run"])

    def fail(self, message: str, code: int = 2) -> None:
        print_error(message)
        self.exitcode = code


def _quiet_on_broken_pipe(run):
    """`scrapy jobs | head`: the reader closed the pipe after what it wanted; stop quietly, no traceback."""
    import functools

    @functools.wraps(run)
    def wrapper(self, args, opts):
        try:
            return run(self, args, opts)
        except BrokenPipeError:
            import os
            import sys

            # Python flushes stdout again at exit: point it at /dev/null so that flush cannot fail too.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
            return None

    return wrapper


__all__ = ["GigflowCommand", "UsageError", "table"]


def print_error(message) -> None:
    """One `error:` line on stderr. A message may quote what the user or a page gave: no password, no terminal
    escapes."""
    import sys

    from gigflow.safety.display import display_safe
    from gigflow.safety.guard import redact_secrets

    print(f"error: {display_safe(redact_secrets(str(message)))}", file=sys.stderr)
