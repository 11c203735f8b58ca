"""Build the project's egg for scrapyd in a temporary folder and upload it (``scrapy deploy``, ``make deploy``).

``scrapyd-deploy`` writes ``setup.py`` and ``build/`` into the checkout and, beside a pyproject.toml, builds an
egg without the ``[scrapy] settings`` entry point that scrapyd's runner needs. Here the package, pyproject.toml
and README are copied to a temporary folder and built there (setuptools reads pyproject.toml, which declares the
entry point), so nothing is written into the checkout."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import gigflow

PROJECT_ROOT = Path(gigflow.__file__).resolve().parent.parent
_COPIED_FILES = ("pyproject.toml", "README.md")
_SETUP_SHIM = "from setuptools import setup\n\nsetup()\n"


class DeployError(RuntimeError):
    """The egg could not be built or a node refused it; the message says which and why."""


def egg_version() -> str:
    """scrapyd runs the highest version of a project; seconds since the epoch always grow."""
    return str(int(time.time()))


def build_egg(dest_dir: Path, root: Path = PROJECT_ROOT, timeout: float = 300.0) -> Path:
    """Build ``gigflow-*.egg`` into ``dest_dir`` from a temporary copy of ``root``; returns its path."""
    if not (root / "pyproject.toml").is_file() or not (root / "gigflow").is_dir():
        raise DeployError(f"{root} is not a gigflow checkout (no pyproject.toml or gigflow/)")
    dest_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="gigflow-egg-") as tmp:
        work = Path(tmp)
        for name in _COPIED_FILES:
            shutil.copy2(root / name, work / name)
        shutil.copytree(root / "gigflow", work / "gigflow",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
        (work / "setup.py").write_text(_SETUP_SHIM, encoding="utf-8")
        out = work / "dist"
        result = subprocess.run([sys.executable, "setup.py", "-q", "bdist_egg", "-d", str(out)],
                                cwd=work, capture_output=True, text=True, timeout=timeout)
        eggs = sorted(out.glob("*.egg")) if out.is_dir() else []
        if result.returncode != 0 or len(eggs) != 1:
            raise DeployError(f"building the egg failed (exit {result.returncode}):\n{result.stderr[-4000:]}")
        target = dest_dir / eggs[0].name
        shutil.move(str(eggs[0]), target)
    return target


def add_version(node_url: str, project: str, version: str, egg: Path, timeout: float = 60.0) -> dict:
    """POST the egg to a node's addversion.json; returns scrapyd's answer or raises DeployError."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in (("project", project), ("version", version)):
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="egg"; filename="{egg.name}"\r\n'
                 "Content-Type: application/octet-stream\r\n\r\n".encode() + egg.read_bytes() + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    url = node_url.rstrip("/") + "/addversion.json"
    request = urllib.request.Request(url, data=b"".join(parts), method="POST",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            answer = json.loads(resp.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise DeployError(f"scrapyd at {url}: HTTP {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise DeployError(f"scrapyd at {url}: {exc}") from None
    if answer.get("status") != "ok":
        raise DeployError(f"scrapyd at {url}: {answer.get('message') or answer}")
    return answer
