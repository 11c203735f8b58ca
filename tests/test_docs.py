"""The documentation site builds with warnings as errors, and its settings reference covers every setting."""

from __future__ import annotations

import subprocess
import sys

from helpers import ROOT


def test_the_docs_site_builds_strictly_with_every_setting_in_the_reference(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(tmp_path)],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    from gigflow import settings

    page = (tmp_path / "configuration" / "index.html").read_text(encoding="utf-8")
    missing = [name for name in dir(settings) if name.isupper() and f"<code>{name}</code>" not in page]
    assert missing == []
