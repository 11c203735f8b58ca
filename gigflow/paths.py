"""Where local files live, derived from settings in one place: inside GIGFLOW_HOME (data_dir)."""

from __future__ import annotations

import os
from pathlib import Path

MIGRATED_MARKER = ".migrated-from-legacy"  # marker: the files of the old location were copied here


def data_dir() -> Path:
    """Where gigflow keeps local state: $GIGFLOW_HOME, else .gigflow beside the project's scrapy.cfg."""
    if os.environ.get("GIGFLOW_HOME"):
        return Path(os.environ["GIGFLOW_HOME"]).resolve()
    from scrapy.utils.conf import closest_scrapy_cfg

    cfg = closest_scrapy_cfg()
    root = Path(cfg).parent if cfg else Path.cwd()
    return root / ".gigflow"


def markdown_root(markdown_dir: str) -> Path | None:
    """MARKDOWN_DIR as a folder: a relative one lies inside GIGFLOW_HOME (None when MARKDOWN_DIR is empty)."""
    if not markdown_dir:
        return None
    root = Path(markdown_dir).expanduser()
    return root if root.is_absolute() else data_dir() / root


def markdown_path(markdown_dir: str, source_id: str, sha256: str) -> Path | None:
    """Content-addressed Markdown file of one source version (None when MARKDOWN_DIR is empty)."""
    root = markdown_root(markdown_dir)
    if root is None or not sha256:
        return None
    return root / source_id / f"{sha256[:16]}.md"


def legacy_markdown_root() -> Path:
    """Where Markdown went before it moved inside GIGFLOW_HOME: ``.gigflow/markdown`` beside the home's parent
    (so shared by every home in one folder)."""
    return data_dir().parent / ".gigflow" / "markdown"


def configured_markdown_dir() -> str:
    """MARKDOWN_DIR as the project's settings give it (for a process that has no crawler's settings at hand)."""
    from scrapy.utils.project import get_project_settings

    return get_project_settings().get("MARKDOWN_DIR", "")
