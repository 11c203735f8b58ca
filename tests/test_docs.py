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


def test_every_command_and_make_target_is_in_the_commands_page():
    import re
    import tomllib

    commands = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["scrapy.commands"]
    page = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert [name for name in commands if f"`scrapy {name}" not in page] == []
    phony = re.search(r"^\.PHONY: (.*)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    internal = {"install", "test-fast", "clean-db", "docs-serve", "demo", "test"}  # in development.md / README
    assert [t for t in phony if t not in internal and f"make {t}" not in page] == []
