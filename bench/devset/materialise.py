"""Lay out the development set's pages from where they came from: the pages themselves are not in the repository.

Each devset folder's MANIFEST.tsv names every page's origin (repository, path, commit). A page the shared corpora
beside the checkout already hold (../shared/corpus*, same repository, path and commit) is copied from there; other
pages not in the checkout already are read from a local snapshot of that repository (a bare git directory per repository under
GIGFLOW_DEVSET_MIRROR, named `owner+name`, with `repo/` (bare, or a clone holding `.git/`) inside or the git directory
itself), with
`git show COMMIT:PATH`, and written where the benches read them (ignored by git). A page with no snapshot is listed
as missing and its site is skipped by the benches.

    python bench/devset/materialise.py            # both sets; prints what is missing
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_MIRROR = "/work/.mirror"
SHARED = HERE.parents[2] / "shared"


def _shared_copies() -> dict[tuple[str, str, str], Path]:
    """(repo, path, commit) -> the file in ../shared/corpus* that holds that page."""
    copies = {}
    for manifest in sorted(SHARED.glob("corpus*/MANIFEST.tsv")):
        with open(manifest, encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter="\t"):
                copies[(row["repo"], row["path"], row["commit"])] = manifest.parent / row["local_path"]
    return copies


def _git_dir(mirror: Path, repo: str) -> Path | None:
    folder = mirror / repo.replace("/", "+")
    for candidate in (folder / "repo", folder / "repo" / ".git", folder):
        if (candidate / "HEAD").exists():
            return candidate
    return None


def materialise(folder: Path, mirror: Path | None = None) -> list[str]:
    """Write the missing pages of one devset folder from their snapshots; returns the pages still missing."""
    mirror = Path(mirror or os.environ.get("GIGFLOW_DEVSET_MIRROR", DEFAULT_MIRROR))
    manifest = folder / "MANIFEST.tsv"
    if not manifest.exists():
        return []
    missing = []
    shared = _shared_copies()
    with open(manifest, encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            local = row.get("local_path") or row.get("page")
            target = folder / local
            if target.exists():
                continue
            copy = shared.get((row["repo"], row["path"], row["commit"]))
            if copy is not None and copy.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(copy.read_bytes())
                continue
            git_dir = _git_dir(mirror, row["repo"])
            shown = subprocess.run(["git", "--git-dir", str(git_dir), "show", f"{row['commit']}:{row['path']}"],
                                   capture_output=True) if git_dir else None
            if shown is None or shown.returncode != 0:
                missing.append(f"{folder.name}/{local} ({row['repo']} {row['commit'][:10]}:{row['path']})")
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(shown.stdout)
    return missing


def materialise_all(mirror: Path | None = None, quiet: bool = False) -> list[str]:
    missing = [page for folder in sorted(p for p in HERE.iterdir() if p.is_dir())
               for page in materialise(folder, mirror)]
    if missing and not quiet:
        print(f"devset: {len(missing)} page(s) have no local snapshot and are skipped "
              f"(see bench/devset/materialise.py): " + ", ".join(missing[:5]) + (" ..." if len(missing) > 5 else ""),
              file=sys.stderr)
    return missing


if __name__ == "__main__":
    sys.exit(1 if materialise_all() else 0)
