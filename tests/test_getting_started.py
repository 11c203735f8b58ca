"""docs/getting-started.md as a newcomer follows it: every ```sh block, in order, in one shell, against the test
database (the example site on a free port instead of 8765). The page must stay true."""

from __future__ import annotations

import os
import re
import socket
import subprocess

import pytest

from helpers import ROOT

pytestmark = [pytest.mark.db, pytest.mark.e2e]
PAGE = ROOT / "docs" / "getting-started.md"


def command_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_every_command_block_of_the_getting_started_page_runs(pool, tmp_path):
    blocks = command_blocks(PAGE.read_text(encoding="utf-8"))
    assert len(blocks) >= 5
    port = str(free_port())
    script = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null' EXIT\n" + "\n".join(
        f"echo \"--- block {i} at $SECONDS s\"\n{block.replace('8765', port)}" for i, block in enumerate(blocks, 1))
    # A checkout of its own for the newcomer (what the page names: .venv, scrapy.cfg, fixtures/), so that the
    # files the page writes (northwind.yaml) never appear in the real one while another test (the scrapyd deploy
    # test: nothing left behind) looks at it.
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in (".venv", "scrapy.cfg", "fixtures"):
        (checkout / name).symlink_to(ROOT / name)
    result = subprocess.run(["bash", "-c", script], cwd=checkout, capture_output=True, text=True, timeout=240,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-5000:]
    assert "now trial" in result.stdout, output[-5000:]  # what the page says the policy review prints
    with pool.connection() as conn:
        source = conn.execute("SELECT status, configuration_id FROM sources WHERE id = 'northwind'").fetchone()
        noise = conn.execute("SELECT config ? 'noiseFilter' AS learned FROM configurations WHERE id = %s",
                             (source["configuration_id"],)).fetchone()
        jobs = conn.execute("SELECT count(*) AS n FROM jobs WHERE source_id = 'northwind'").fetchone()["n"]
    assert source["status"] == "active" and noise["learned"] and jobs >= 3, output[-3000:]
    assert "Backend Engineer" in result.stdout  # `scrapy jobs --source northwind`
