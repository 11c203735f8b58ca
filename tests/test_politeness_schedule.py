"""Adaptive crawl frequency and `scrapy schedule-due` against a recording stand-in for scrapyd's HTTP API."""

import json
import threading
import urllib.parse
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gigflow.politeness.keys import Policies, PolicyError
from gigflow.runs.decide import next_interval
from scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import crawl, scrapy_command


def test_provider_hosts_share_one_budget_and_domains_default_to_etld1():
    policies = Policies(30.0, {"boards-api.greenhouse.io": {"per_minute": 15}, "jobs.example.co.uk": {"interval": 2}})
    greenhouse = policies.for_host("boards-api.greenhouse.io")
    assert greenhouse.key == "boards-api.greenhouse.io" and greenhouse.interval == 4.0
    assert policies.for_host("careers.acme.co.uk").key == "acme.co.uk"
    assert policies.for_host("www.acme.co.uk").interval == 30.0
    assert policies.for_host("eu.jobs.example.co.uk").key == "jobs.example.co.uk"
    assert policies.for_host("127.0.0.7").key == "127.0.0.7"
    with pytest.raises(PolicyError, match="per_minute must be positive"):
        Policies(30.0, {"x.com": {"per_minute": 0}})


def test_unchanged_runs_slow_the_schedule_down_and_a_change_resets_it():
    intervals = [next_interval(n, base=3600, slowdown_after=3, factor=2, cap=4 * 3600) for n in range(6)]
    assert intervals == [3600, 3600, 3600, 7200, 14400, 14400]


def seconds_until(pool, source_id):
    with pool.connection() as conn:
        row = conn.execute("SELECT next_crawl_at, unchanged_runs FROM sources WHERE id = %s", (source_id,)).fetchone()
    return (row["next_crawl_at"] - datetime.now(timezone.utc)).total_seconds(), row["unchanged_runs"]


def test_crawls_set_next_crawl_at_from_whether_content_changed(pool):
    settings = ["CRAWL_BASE_INTERVAL=1000", "CRAWL_SLOWDOWN_AFTER_UNCHANGED_RUNS=1", "CRAWL_SLOWDOWN_FACTOR=3"]
    with ScriptedServer(site("/ad", jobs=1)) as server:
        import_sources(pool, parse_sources({"sources": [source("ad", server.url, "/ad")]}))
        crawl("href", "ad", *settings)
        first = seconds_until(pool, "ad")
        crawl("href", "ad", *settings)
        second = seconds_until(pool, "ad")
    assert 990 < first[0] <= 1000 and first[1] == 0  # new content: base rate
    assert 2990 < second[0] <= 3000 and second[1] == 1  # unchanged: slowed down


class RecordingScrapyd(BaseHTTPRequestHandler):
    """scrapyd's schedule.json and daemonstatus.json: records each schedule call, reports ``busy`` running jobs."""

    calls: list = []
    busy = 0

    def log_message(self, *args):
        pass

    def do_GET(self):
        self._answer({"status": "ok", "running": self.busy, "pending": 0, "finished": 0})

    def do_POST(self):
        form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        self.calls.append((self.path, {k: v if k == "setting" else v[0] for k, v in form.items()}))
        self._answer({"status": "ok", "jobid": form["jobid"][0]})

    def _answer(self, answer):
        body = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def job_sources(calls) -> list[str]:
    """The sources of every schedule.json call: ``source=ID`` or ``sources=ID,ID,...``."""
    return [sid for _, form in calls for sid in (form.get("sources") or form["source"]).split(",")]


def test_schedule_due_asks_scrapyd_for_each_due_active_source_once(pool):
    base = "http://127.0.0.1:1"
    import_sources(pool, parse_sources({"sources": [
        source("due", base, "/due"), source("later", base, "/later"),
        {**source("idle", base, "/idle"), "status": "candidate"}]}))
    with pool.connection() as conn:
        conn.execute("UPDATE sources SET next_crawl_at = now() + interval '1 hour' WHERE id = 'later'")
    handler = type("Handler", (RecordingScrapyd,), {"calls": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}"
        first = scrapy_command("schedule-due", "--url", url)
        again = scrapy_command("schedule-due", "--url", url)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert first.returncode == 0, first.stderr
    [(path, form)] = handler.calls
    assert path == "/schedule.json"
    assert {k: form[k] for k in ("project", "spider", "source")} == {"project": "gigflow", "spider": "href", "source": "due"}
    assert form["jobid"] in first.stdout
    assert again.returncode == 0 and "no source is due" in again.stdout  # claimed while its crawl runs
    with pool.connection() as conn:
        claim = conn.execute("SELECT jobs, expires_at - now() AS left FROM crawl_claims WHERE source_id = 'due'").fetchone()
    assert claim["jobs"] == [{"spider": "href", "node": url, "job_id": form["jobid"]}]
    assert claim["left"].total_seconds() > 3500


def test_schedule_due_reports_an_unreachable_scrapyd(pool):
    import_sources(pool, parse_sources({"sources": [source("due", "http://127.0.0.1:1", "/due")]}))
    result = scrapy_command("schedule-due", "--url", "http://127.0.0.1:9")
    assert result.returncode == 1 and "scrapyd at http://127.0.0.1:9/daemonstatus.json" in result.stdout
    assert "no scrapyd node answered" in result.stdout and "Traceback" not in result.stderr
    with pool.connection() as conn:
        assert conn.execute("SELECT next_crawl_at FROM sources").fetchone()["next_crawl_at"] is None
        assert conn.execute("SELECT count(*) AS n FROM crawl_claims").fetchone()["n"] == 0


def _recording_node(busy: int):
    handler = type("Handler", (RecordingScrapyd,), {"calls": [], "busy": busy})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, handler, f"http://127.0.0.1:{httpd.server_address[1]}"


def test_schedule_due_spreads_sources_by_free_slots_and_passes_settings(pool):
    base = "http://127.0.0.1:1"
    import_sources(pool, parse_sources({"sources": [source(f"s{i}", base, f"/s{i}") for i in range(5)]}))
    busy_node, busy_calls, busy_url = _recording_node(busy=2)  # 3 slots, 2 running: 1 free
    idle_node, idle_calls, idle_url = _recording_node(busy=0)  # 3 free
    try:
        result = scrapy_command("schedule-due", "-s", f"SCRAPYD_NODES={busy_url},{idle_url}",
                                "-s", "SCRAPYD_NODE_SLOTS=3", "-s", "POLITENESS_MIN_INTERVAL=2",
                                "-s", "SCHEDULE_SOURCES_PER_JOB=1",  # one source per job: one per free slot
                                "-s", 'SCRAPYD_JOB_SETTINGS={"CLICK_TIMEOUT": 5}')
    finally:
        for httpd in (busy_node, idle_node):
            httpd.shutdown()
            httpd.server_close()
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(busy_calls.calls) == 1 and len(idle_calls.calls) == 3  # 4 free slots: 4 of the 5 due sources
    scheduled = [form for _, form in busy_calls.calls + idle_calls.calls]
    assert sorted(form["source"] for form in scheduled) == ["s0", "s1", "s2", "s3"]
    for form in scheduled:
        assert sorted(form["setting"]) == ["CLICK_TIMEOUT=5", "POLITENESS_MIN_INTERVAL=2"]  # no SCRAPYD_* setting
    with pool.connection() as conn:
        claimed = [r["source_id"] for r in conn.execute("SELECT source_id FROM crawl_claims ORDER BY 1")]
    assert claimed == ["s0", "s1", "s2", "s3"]  # s4 waits, unclaimed, for a free slot


def test_schedule_due_names_a_bad_node_setting(pool):
    result = scrapy_command("schedule-due", "-s", "SCRAPYD_NODES=ftp://node:21")
    assert result.returncode == 2 and "SCRAPYD_NODES: 'ftp://node:21' is not an http(s) URL" in result.stderr
    assert "Traceback" not in result.stderr


def test_concurrent_claims_never_take_one_source_twice(pool):
    """Two passes at once: the one that runs while another holds its claims gets only the other sources, and a
    pass after both commits finds nothing."""
    from gigflow.scheduling.claims import claim_due_sources

    import_sources(pool, parse_sources({"sources": [source(f"s{i:02d}", "http://127.0.0.1:1", f"/s{i}") for i in range(12)]}))
    with pool.connection() as first, pool.connection() as second:
        first.autocommit = second.autocommit = False
        taken_first = [r.id for r in claim_due_sources(first, 7, 60)]
        taken_second = [r.id for r in claim_due_sources(second, 12, 60)]
        first.commit()
        second.commit()
    with pool.connection() as conn:
        again = claim_due_sources(conn, 12, 60)
        claims = conn.execute("SELECT count(*) AS n FROM crawl_claims").fetchone()["n"]
    assert len(taken_first) == 7 and len(taken_second) == 5
    assert sorted(taken_first + taken_second) == [f"s{i:02d}" for i in range(12)]
    assert again == [] and claims == 12


def test_the_periodic_worker_schedules_due_sources_once_each(pool):
    import signal
    import subprocess
    import sys
    import time

    from helpers import ROOT

    import_sources(pool, parse_sources({"sources": [source(f"s{i}", "http://127.0.0.1:1", f"/s{i}") for i in range(2)]}))
    httpd, handler, url = _recording_node(busy=0)
    worker = subprocess.Popen([sys.executable, "-m", "scrapy", "schedule-due", "--worker", "-s", f"SCRAPYD_NODES={url}",
                               "-s", "SCHEDULE_DUE_CRON=* * * * * */1"],  # every second (croniter's 6th field)
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.time() + 60
        # both sources scheduled (one job holds both: SCHEDULE_SOURCES_PER_JOB packs them)
        while time.time() < deadline and sorted(job_sources(handler.calls)) != ["s0", "s1"]:
            time.sleep(0.2)
        time.sleep(2.5)  # more ticks: the claims keep them from scheduling again
    finally:
        worker.send_signal(signal.SIGINT)
        try:
            output = worker.communicate(timeout=30)[0]
        except subprocess.TimeoutExpired:
            worker.kill()
            output = worker.communicate()[0]
        httpd.shutdown()
        httpd.server_close()
    assert sorted(job_sources(handler.calls)) == ["s0", "s1"], output[-3000:]
    assert "2 job(s) scheduled" in output


def test_node_and_job_settings_are_read_in_every_documented_form():
    from gigflow.scheduling.scrapyd import job_settings_from, parse_nodes

    assert parse_nodes([], "http://localhost:6800", 4) == [("http://localhost:6800", 4)]
    assert parse_nodes("http://a:6800/, http://b:6800=8", "http://x", 2) == [("http://a:6800", 2), ("http://b:6800", 8)]
    assert parse_nodes('{"http://a:6800": 3}', "http://x", 2) == [("http://a:6800", 3)]
    assert parse_nodes(["http://a:6800"], "http://x", 2) == [("http://a:6800", 2)]
    for bad, message in [("[1", "SCRAPYD_NODES is not valid JSON"), ("http://a=0", "must be at least 1"),
                         ("a:6800", r"is not an http\(s\) URL")]:
        with pytest.raises(ValueError, match=message):
            parse_nodes(bad, "http://x", 2)
    assert job_settings_from(["A=1", "B=x=y"], '{"A": 0, "C": [1], "SCRAPYD_NODES": "n"}') == {
        "A": "1", "B": "x=y", "C": "[1]"}
    with pytest.raises(ValueError, match="SCRAPYD_JOB_SETTINGS is not valid JSON"):
        job_settings_from([], "{")
