"""Where local files live, derived from settings in one place: inside GIGFLOW_HOME (data_dir)."""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from psycopg.rows import tuple_row

from gigflow.sql import load_queries

logger = logging.getLogger(__name__)
_MIGRATED = ".migrated-from-legacy"  # marker: the files of the old location were copied here


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


def migrate_markdown_files(pool, markdown_dir: str) -> int:
    """Copy into MARKDOWN_DIR the files of the old location that this database's versions stand for (copies: other
    homes may share the old folder); once per home (a marker file, written only when every file was copied).
    Run with the schema migrations (`scrapy db upgrade`, and a process's first use of its home database, which
    may be a crawl's start: once per home, then the marker answers). Returns how many were copied; a file that cannot be copied is a warning, and the next run tries again."""
    root = markdown_root(markdown_dir)
    legacy = legacy_markdown_root()
    if root is None or not legacy.is_dir() or (root / _MIGRATED).exists():
        return 0
    if root.resolve() == legacy.resolve():
        return 0
    copied, failed = 0, []
    with pool.connection() as conn:
        # store/versions.sql's query, read without importing the store (which imports this module for its paths)
        with conn.cursor(row_factory=tuple_row) as cursor:
            pairs = cursor.execute(load_queries("gigflow.store", "versions.sql")["version_files"]).fetchall()
    for source_id, sha256 in pairs:
        old = legacy / source_id / f"{sha256[:16]}.md"
        new = root / source_id / f"{sha256[:16]}.md"
        try:
            if old.is_file() and not new.exists():
                new.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(old, new)
                copied += 1
        except OSError as exc:
            failed.append(f"{old}: {exc.strerror or type(exc).__name__}")
    if failed:  # no marker: the next start copies what is still missing
        logger.warning("could not copy %d Markdown file(s) from %s into %s (tried again next time), e.g. %s",
                       len(failed), legacy, root, failed[0])
    else:
        try:
            root.mkdir(parents=True, exist_ok=True)
            (root / _MIGRATED).write_text(f"{legacy}\n", encoding="utf-8")
        except OSError as exc:
            logger.warning("could not mark %s as migrated: %s", root, exc.strerror or type(exc).__name__)
    if copied:
        logger.warning("copied %d Markdown file(s) from %s into %s (inside GIGFLOW_HOME); the old folder is no longer "
                       "read and may be removed once no other home uses it", copied, legacy, root)
    return copied
