"""Custom `scrapy` commands, registered as `scrapy.commands` entry points in pyproject.toml.

Commands are thin: parse arguments, call the library, print.
"""

from __future__ import annotations

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError


class GigflowCommand(ScrapyCommand):
    requires_project = True
    default_settings = {"LOG_ENABLED": False}

    def fail(self, message: str, code: int = 2) -> None:
        import sys

        print(f"error: {message}", file=sys.stderr)
        self.exitcode = code


def table(rows: list[dict], columns: list[str], widths: dict[str, int] | None = None) -> str:
    """A plain-text table; long cells are cut to the column's width."""
    widths = widths or {}
    cells = [[_cell(row.get(col), widths.get(col, 60)) for col in columns] for row in rows]
    sizes = [max([len(col)] + [len(r[i]) for r in cells]) for i, col in enumerate(columns)]
    lines = ["  ".join(col.ljust(sizes[i]) for i, col in enumerate(columns)).rstrip(),
             "  ".join("-" * sizes[i] for i in range(len(columns)))]
    lines += ["  ".join(r[i].ljust(sizes[i]) for i in range(len(columns))).rstrip() for r in cells]
    return "\n".join(lines)


def _cell(value, width: int) -> str:
    text = "" if value is None else " ".join(str(value).split())
    return text if len(text) <= width else text[: width - 1] + "…"


__all__ = ["GigflowCommand", "UsageError", "table"]
