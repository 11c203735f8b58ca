"""Several sources in one crawl process (`scrapy crawl href -a sources=...`), and schedule-due packing due sources
into such jobs so that jobs share as few politeness keys as possible."""

from __future__ import annotations

import pytest

from gigflow.scheduling.batch import plan_jobs
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import scrapy_command
from scripted_server import ScriptedServer, site, source

INTERVAL = 0.4


def test_plan_jobs_keeps_keys_whole_fills_the_least_filled_job_and_alternates_keys():
    units = [(f"a{i}", "a.example") for i in range(4)] + [(f"b{i}", "b.example") for i in range(2)] + [
        ("c0", "c.example"), ("d0", "d.example")]
    jobs = plan_jobs(units, jobs=2, per_job=4)
    assert jobs == [["a0", "a1", "a2", "a3"], ["b0", "c0", "d0", "b1"]]  # keys whole; b's two not side by side
    # A key larger than a job is split over the least-filled jobs; nothing is left out or doubled.
    split = plan_jobs([(f"a{i}", "a.example") for i in range(5)] + [("b0", "b.example")], jobs=3, per_job=2)
    assert sorted(sum(split, [])) == ["a0", "a1", "a2", "a3", "a4", "b0"] and all(len(job) <= 2 for job in split)
    # One key never needs more than one job when it fits: its crawls would only wait on each other.
    assert plan_jobs([(f"a{i}", "a.example") for i in range(3)], jobs=4, per_job=16) == [["a0", "a1", "a2"]]


def _route(path: str, headers: dict):
    prefix = "/" + path.split("/")[1] if path.count("/") > 1 else "/none"
    return site(prefix, jobs=2)(path, headers)


@pytest.mark.parametrize("process", ["asyncio", "twisted"])  # AsyncCrawlerProcess (the default) and CrawlerProcess
def test_one_process_crawls_several_sources_each_with_its_own_run_and_the_interval_held(pool, process, tmp_path):
    with ScriptedServer(_route) as one, ScriptedServer(_route, host="127.0.0.2") as two:
        import_sources(pool, parse_sources({"sources": [
            source("p1", one.url, "/p1"), source("p2", one.url, "/p2"), source("q1", two.url, "/q1")]}))
        result = scrapy_command("crawl", "href", "-a", "sources=p1,nowhere,p2,q1,p1",
                                "-s", "CRAWL_CONCURRENT_SOURCES=2", "-s", f"POLITENESS_MIN_INTERVAL={INTERVAL}",
                                "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.0/8", "-s", "MARKDOWN_DIR=",
                                "-s", f"FORCE_CRAWLER_PROCESS={process == 'twisted'}",
                                "-O", str(tmp_path / "jobs-%(source_id)s.jsonl"))
        hits = {name: sorted(server.hits, key=lambda h: h.start) for name, server in (("one", one), ("two", two))}
    # The unknown id is named and refused (exit 2); the others ran, each once, in this one process.
    assert result.returncode == 2, result.stderr[-3000:]
    assert "nowhere" in result.stderr and "Traceback" not in result.stderr
    assert "batch of href: 4 source(s): 3 ran, 0 already running, 1 refused, 0 failed" in result.stderr
    with pool.connection() as conn:
        runs = conn.execute("SELECT source_id, outcome, owner_pid FROM crawl_runs ORDER BY source_id").fetchall()
        jobs = conn.execute("SELECT source_id, count(*) AS n FROM jobs GROUP BY 1 ORDER BY 1").fetchall()
        claims = conn.execute("SELECT count(*) AS n FROM crawl_claims").fetchone()["n"]
    assert [(r["source_id"], r["outcome"]) for r in runs] == [
        ("p1", "finished"), ("p2", "finished"), ("q1", "finished")]
    assert len({r["owner_pid"] for r in runs}) == 1
    assert [(j["source_id"], j["n"]) for j in jobs] == [("p1", 2), ("p2", 2), ("q1", 2)]
    assert claims == 0  # each crawl released its own claim
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jobs-p1.jsonl", "jobs-p2.jsonl", "jobs-q1.jsonl"]
    # Two crawls on one key in one process still keep the interval between every two requests to it.
    pages = [h for h in hits["one"] if h.path != "/robots.txt"]
    assert len(pages) == 6
    gaps = [b.start - a.start for a, b in zip(pages, pages[1:])]
    assert min(gaps) >= INTERVAL - 0.02, gaps
    # Two places, three sources: the second went to q1 (its key idle here) before p2, listed earlier, whose key
    # p1 was using.
    p2_first = min(h.start for h in pages if h.path.startswith("/p2/"))
    assert hits["two"][0].start < p2_first


def test_a_batch_renews_waiting_claims_and_once_shut_down_starts_nothing_more_and_releases_them(pool):
    import signal
    import subprocess
    import sys
    import time

    from helpers import ROOT

    def route(path, headers):
        prefix = "/" + path.split("/")[1] if path.count("/") > 1 else "/none"
        return site(prefix, jobs=4, job_delay=1.0)(path, headers)

    def live_claims() -> list[str]:
        with pool.connection() as conn:
            return [r["source_id"] for r in conn.execute(
                "SELECT source_id FROM crawl_claims WHERE expires_at > now() ORDER BY 1")]

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources({"sources": [source(f"x{i}", server.url, f"/x{i}") for i in range(3)]}))
        with pool.connection() as conn:  # as schedule-due leaves them, about to expire
            conn.execute("INSERT INTO crawl_claims (source_id, expires_at) SELECT id, now() + interval '1 second' "
                         "FROM sources")
        crawl = subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "href", "-a", "sources=x0,x1,x2",
                                  "-s", "CRAWL_CONCURRENT_SOURCES=1", "-s", "SCHEDULE_CLAIM_SECONDS=3",
                                  "-s", "POLITENESS_MIN_INTERVAL=0", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
                                  "-s", "MARKDOWN_DIR="], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
        deadline = time.time() + 60
        while time.time() < deadline and not any("/jobs/" in h.path for h in server.hits):
            time.sleep(0.1)
        while time.time() < deadline and live_claims() != ["x0", "x1", "x2"]:
            time.sleep(0.1)
        waiting = live_claims()  # the first claims expired long ago: x1 and x2 are live only if renewed
        crawl.send_signal(signal.SIGINT)  # while x0 fetches its job pages
        _, err = crawl.communicate(timeout=60)
    assert waiting == ["x0", "x1", "x2"], err[-3000:]
    assert crawl.returncode == 1, err[-3000:]
    assert "3 source(s): 1 ran" in err and "2 not started (shut down)" in err, err[-3000:]
    with pool.connection() as conn:
        runs = [r["source_id"] for r in conn.execute("SELECT source_id FROM crawl_runs")]
        claims = conn.execute("SELECT count(*) AS n FROM crawl_claims").fetchone()["n"]
    assert runs == ["x0"] and claims == 0  # x0's crawl released its own; x1 and x2 are free for the next pass


def test_a_batch_refuses_one_output_file_for_all_its_sources(pool, tmp_path):
    result = scrapy_command("crawl", "href", "-a", "sources=a,b", "-O", str(tmp_path / "jobs.jsonl"))
    assert result.returncode == 2 and "put %(source_id)s in" in result.stderr and "Traceback" not in result.stderr
    assert not list(tmp_path.iterdir())


def _recording_node():
    from test_politeness_schedule import _recording_node as node

    return node(busy=0)


def test_schedule_due_packs_due_sources_into_jobs_that_share_no_key(pool):
    hosts = ["http://127.0.0.1:1", "http://127.0.0.2:1", "http://127.0.0.3:1"]
    import_sources(pool, parse_sources({"sources": [
        source(f"s{h}{i}", host, f"/s{h}{i}") for h, host in enumerate(hosts) for i in range(2)]}))
    httpd, handler, url = _recording_node()
    try:
        result = scrapy_command("schedule-due", "-s", f"SCRAPYD_NODES={url}=2", "-s", "SCHEDULE_SOURCES_PER_JOB=4")
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert result.returncode == 0, result.stdout + result.stderr
    forms = [form for _, form in handler.calls]
    assert len(forms) == 2  # two free slots: two jobs
    jobs = [form["sources"].split(",") for form in forms]
    assert sorted(sum(jobs, [])) == ["s00", "s01", "s10", "s11", "s20", "s21"]
    host_sets = [{sid[1] for sid in job} for job in jobs]
    assert not host_sets[0] & host_sets[1]  # no politeness key in both jobs
    with pool.connection() as conn:
        claims = {r["source_id"]: r["jobs"] for r in conn.execute("SELECT source_id, jobs FROM crawl_claims")}
    for form, job in zip(forms, jobs):
        for sid in job:
            assert claims[sid] == [{"spider": "href", "node": url, "job_id": form["jobid"]}]
