"""Adaptive crawl frequency and `scrapy schedule-due` against a recording stand-in for scrapyd's HTTP API."""

import json
import threading
import urllib.parse
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from gigflow.politeness.keys import Policies, PolicyError
from gigflow.politeness.schedule import next_interval
from gigflow.politeness.scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import crawl, run_scrapy


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
    calls: list = []

    def log_message(self, *args):
        pass

    def do_POST(self):
        form = urllib.parse.parse_qs(self.rfile.read(int(self.headers["Content-Length"])).decode())
        self.calls.append((self.path, {k: v[0] for k, v in form.items()}))
        body = json.dumps({"status": "ok", "jobid": f"job-{len(self.calls)}"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


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
        first = run_scrapy("schedule-due", "--url", url)
        again = run_scrapy("schedule-due", "--url", url)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert first.returncode == 0, first.stderr
    assert handler.calls == [("/schedule.json", {"project": "gigflow", "spider": "href", "source": "due"})]
    assert "job-1" in first.stdout
    assert again.returncode == 0 and "no source is due" in again.stdout  # claimed while its crawl runs
    assert seconds_until(pool, "due")[0] > 3500


def test_schedule_due_reports_an_unreachable_scrapyd(pool):
    import_sources(pool, parse_sources({"sources": [source("due", "http://127.0.0.1:1", "/due")]}))
    result = run_scrapy("schedule-due", "--url", "http://127.0.0.1:9")
    assert result.returncode == 1 and "scrapyd at http://127.0.0.1:9/schedule.json" in result.stdout
    with pool.connection() as conn:
        assert conn.execute("SELECT next_crawl_at FROM sources").fetchone()["next_crawl_at"] is None
