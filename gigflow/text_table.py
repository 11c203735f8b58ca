"""Plain-text tables for commands and exports: one row per line, long cells cut to their column's width."""

from gigflow.safety.display import display_safe


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
    # (terminal escapes and bidi overrides shown as U+FFFD: a cell cannot recolour or reorder the terminal)
    text = "" if value is None else display_safe(" ".join(str(value).split()))
    return text if len(text) <= width else text[: width - 1] + "…"
