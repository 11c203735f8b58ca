"""Where local files live, derived from settings in one place."""

from __future__ import annotations

from pathlib import Path

from gigflow.db import data_dir


def markdown_path(markdown_dir: str, source_id: str, sha256: str) -> Path | None:
    """Content-addressed Markdown file of one source version (None when MARKDOWN_DIR is empty)."""
    if not markdown_dir or not sha256:
        return None
    root = Path(markdown_dir)
    if not root.is_absolute():
        root = data_dir().parent / root
    return root / source_id / f"{sha256[:16]}.md"
