"""Scale-out end to end: `scrapy deploy` builds the egg outside the checkout and adds it to two real scrapyd
processes on 127.0.0.1 (own ports and folders, one database); two `scrapy schedule-due` at once spread the
sources over both nodes without scheduling any twice; the site's own arrival log shows the interval held."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import ROOT, run_scrapy

pytest.importorskip("scrapyd", reason="needs the [scrapyd] extra (pip install -e '.[scrapyd]')")

INTERVAL = 0.5
SOURCES = 4
JOBS_PER_SOURCE = 2


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return json.loads(resp.read())


class Scrapyd:
    """One scrapyd process in its own folder, with its own port, eggs, logs and queue."""

    def __init__(self, folder: Path, database_url: str):
        self.folder = folder
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        folder.mkdir()
        (folder / "scrapyd.conf").write_text(
            f"[scrapyd]\nbind_address = 127.0.0.1\nhttp_port = {self.port}\nmax_proc = 2\npoll_interval = 0.2\n"
            "eggs_dir = eggs\nlogs_dir = logs\ndbs_dir = dbs\n")
        env = {**os.environ, "GIGFLOW_DATABASE_URL": database_url}
        self.log = open(folder / "scrapyd.out", "wb")
        self.process = subprocess.Popen([sys.executable, "-m", "scrapyd"], cwd=folder, env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                if _get(self.url + "/daemonstatus.json")["status"] == "ok":
                    return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"scrapyd on {self.url} did not start:\n{(self.folder / 'scrapyd.out').read_text()}")

    def jobs(self) -> dict:
        return _get(self.url + "/listjobs.json?project=gigflow")

    def job_logs(self) -> str:
        return "\n".join(p.read_text(errors="replace") for p in (self.folder / "logs").rglob("*.log"))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


@pytest.fixture
def nodes(tmp_path, database_url):
    started = [Scrapyd(tmp_path / f"node{i}", database_url) for i in (1, 2)]
    try:
        for node in started:
            node.wait_ready()
        yield started
    finally:
        for node in started:
            node.stop()


def _route(path: str, headers: dict):
    prefix = "/" + path.split("/")[1] if path.count("/") > 1 else "/s0"
    return site(prefix, jobs=JOBS_PER_SOURCE)(path, headers)


@pytest.mark.timeout(240)
def test_deployed_egg_runs_scheduled_crawls_on_two_nodes_and_holds_the_interval(pool, nodes, database_url):
    checkout_before = sorted(p.name for p in ROOT.iterdir())
    node_list = ",".join(node.url for node in nodes)
    deployed = run_scrapy("deploy", "-s", f"SCRAPYD_NODES={node_list}")
    assert deployed.returncode == 0, deployed.stdout + deployed.stderr
    assert sorted(p.name for p in ROOT.iterdir()) == checkout_before  # no setup.py, build/ or egg left behind
    for node in nodes:
        assert f"{node.url}: project gigflow version" in deployed.stdout

    with ScriptedServer(_route) as server:
        import_sources(pool, parse_sources({"sources": [source(f"s{i}", server.url, f"/s{i}") for i in range(SOURCES)]}))
        # Two passes at once, each seeing both nodes' free slots: the claims keep them from doubling up.
        # Two sources per job: each job crawls two sources in one process (-a sources=...).
        args = ["schedule-due", "-s", f"SCRAPYD_NODES={node_list}", "-s", "SCRAPYD_NODE_SLOTS=2",
                "-s", f"SCHEDULE_SOURCES_PER_JOB={SOURCES // 2}",
                "-s", f"POLITENESS_MIN_INTERVAL={INTERVAL}", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
                "-s", 'SCRAPYD_JOB_SETTINGS={"MARKDOWN_DIR": "", "LOG_LEVEL": "INFO"}']
        passes = [subprocess.Popen([sys.executable, "-m", "scrapy", *args], cwd=ROOT, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outputs = [p.communicate(timeout=120) for p in passes]
        assert all(p.returncode == 0 for p in passes), outputs

        deadline = time.time() + 150
        while time.time() < deadline:
            with pool.connection() as conn:
                runs = conn.execute("SELECT source_id, outcome FROM crawl_runs WHERE finished_at IS NOT NULL").fetchall()
            if len(runs) >= SOURCES and not any(n.jobs()["running"] or n.jobs()["pending"] for n in nodes):
                break
            time.sleep(0.2)  # poll: the nodes finish when they finish
        hits = sorted(server.hits, key=lambda hit: hit.start)

    logs = "\n".join(node.job_logs() for node in nodes)
    assert sorted(r["source_id"] for r in runs) == [f"s{i}" for i in range(SOURCES)], logs[-6000:]  # each once
    assert all(r["outcome"] == "finished" for r in runs), runs
    finished = [len(node.jobs()["finished"]) for node in nodes]
    assert sum(finished) == 2 and all(finished), finished  # one job per node, none twice
    assert logs.count(f"batch of href: {SOURCES // 2} source(s): {SOURCES // 2} ran") == 2, logs[-6000:]
    # SCRAPYD_JOB_SETTINGS reached the jobs: MARKDOWN_DIR="" wrote no Markdown beside them (the default would).
    assert not any((node.folder / ".gigflow").exists() for node in nodes)
    # The site's own clock: every page of every source, and no two starts closer than the interval.
    assert len([h for h in hits if "/jobs/" in h.path]) == SOURCES * JOBS_PER_SOURCE
    gaps = [later.start - earlier.start for earlier, later in zip(hits, hits[1:])]
    assert min(gaps) >= INTERVAL - 0.02, gaps
    assert max(gaps) < 20, gaps  # schedule-due's -s POLITENESS_MIN_INTERVAL reached the jobs (the default is 30)
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM crawl_claims").fetchone()["n"] == 0  # crawls released them
