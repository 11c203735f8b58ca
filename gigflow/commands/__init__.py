"""Custom `scrapy` commands, registered as `scrapy.commands` entry points in pyproject.toml.

Commands are thin: parse arguments, call the library, print.
"""

from __future__ import annotations

from functools import cached_property

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
    # crawls says so (schedule-due lists the spiders; sources says so in ``crawls`` for try and discover).
    requires_crawler_process = False

    def crawls(self, args: list[str]) -> bool:
        """Whether this command runs a crawler process for these positional arguments (a command that crawls for
        some of its actions only overrides it): what process_options sets requires_crawler_process to."""
        return type(self).requires_crawler_process

    def process_options(self, args, opts):
        self.requires_crawler_process = self.crawls(args)
        super().process_options(args, opts)
        if not self.requires_crawler_process:
            from scrapy.utils.log import configure_logging

            # What the crawler process would have done first: Scrapy's logging set-up (with LOG_ENABLED off, a
            # silent root handler, and Python's warnings through logging).
            configure_logging(self.settings)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "run" in cls.__dict__:
            cls.run = checked_run(cls.__dict__["run"])

    @cached_property
    def pool(self):
        """The database this command's settings name (DATABASE_URL, else GIGFLOW_DATABASE_URL or the embedded
        server), connected and migrated on first use: every command takes its pool here and hands it down. The
        command owns it: it is closed when ``run`` returns (checked_run), so nothing outlives the command."""
        from gigflow.db import open_pool_from_settings

        return open_pool_from_settings(self.settings)

    @property
    def database_url(self) -> str:
        """The URL behind ``pool``, for what opens its own connections (workers, backup and restore)."""
        from gigflow.db import url_from_settings

        return url_from_settings(self.settings)

    def fail(self, message: str, code: int = 2) -> None:
        print_error(message)
        self.exitcode = code


def checked_run(run):
    """What every gigflow command does around its ``run``: a bad typed setting (``-s BACKUP_KEEP=x``) is one line
    naming it, exit 2, before anything starts (gigflow.settings_check), never a ValueError from deep inside; and
    `scrapy jobs | head` (the reader closed the pipe after what it wanted) stops quietly, no traceback."""
    import functools

    if getattr(run, "gigflow_checked", False):
        return run

    @functools.wraps(run)
    def wrapper(self, args, opts):
        from gigflow.settings_check import settings_problem

        problem = settings_problem(self.settings)
        if problem:
            print_error(problem)
            self.exitcode = 2
            return None
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
        finally:
            pool = self.__dict__.pop("pool", None)  # GigflowCommand.pool, if the command opened it
            if pool is not None:
                pool.close()

    wrapper.gigflow_checked = True
    return wrapper


__all__ = ["GigflowCommand", "UsageError", "cannot_write", "table"]


def cannot_write(path: str) -> str | None:
    """Why a file cannot be written at ``path`` (checked before a command does work whose result goes there), or
    None."""
    import os
    from pathlib import Path

    target = Path(path)
    if target.is_dir():
        return "is a folder, not a file"
    if not target.parent.is_dir():
        return f"no folder {target.parent}" if not target.parent.exists() else f"{target.parent} is not a folder"
    if not os.access(target.parent, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        return "cannot write it: permission denied"
    return None


def print_error(message) -> None:
    """One `error:` line on stderr. A message may quote what the user or a page gave: no password, no terminal
    escapes."""
    import sys

    from gigflow.safety.display import display_safe
    from gigflow.safety.guard import redact_secrets

    print(f"error: {display_safe(redact_secrets(str(message)))}", file=sys.stderr)
