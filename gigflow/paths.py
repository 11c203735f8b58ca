"""Where local files live, derived from settings in one place: inside GIGFLOW_HOME (gigflow.db.data_dir)."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from gigflow.db import data_dir
from gigflow.sql import load_sql

logger = logging.getLogger(__name__)
_MIGRATED = ".migrated-from-legacy"  # marker: the files of the old location were copied here


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


def migrate_markdown_files(pool, markdown_dir: str) -> int:
    """Copy into MARKDOWN_DIR the files of the old location that this database's versions stand for (copies: other
    homes may share the old folder); once per home (a marker file). Returns how many were copied."""
    root = markdown_root(markdown_dir)
    legacy = legacy_markdown_root()
    if root is None or not legacy.is_dir() or (root / _MIGRATED).exists():
        return 0
    if root.resolve() == legacy.resolve():
        return 0
    copied = 0
    with pool.connection() as conn:
        rows = conn.execute(load_sql("gigflow.store", "version_files.sql")).fetchall()
    for row in rows:
        old = legacy / row["source_id"] / f"{row['sha256'][:16]}.md"
        new = root / row["source_id"] / f"{row['sha256'][:16]}.md"
        if old.is_file() and not new.exists():
            new.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(old, new)
            copied += 1
    root.mkdir(parents=True, exist_ok=True)
    (root / _MIGRATED).write_text(f"{legacy}\n", encoding="utf-8")
    if copied:
        logger.warning("copied %d Markdown file(s) from %s into %s (inside GIGFLOW_HOME); the old folder is no longer "
                       "read and may be removed once no other home uses it", copied, legacy, root)
    return copied
