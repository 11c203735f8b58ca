"""Retry-After in both forms, a 429 storm that backs off and recovers, and a killed process's lease expiring."""

import signal
import subprocess
import sys
import threading
import time
from email.utils import formatdate

import pytest

from gigflow.politeness.keys import Policy
from gigflow.politeness.limiter import Backoff, Lease, Limiter
from gigflow.politeness.retry_after import retry_after_seconds
from scripted_server import Reply, ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import ROOT, crawl


def test_retry_after_parses_both_forms():
    now = 1_800_000_000.0
    assert retry_after_seconds(b"120", now) == 120.0
    assert retry_after_seconds(formatdate(now + 90, usegmt=True), now) == pytest.approx(90.0)
    assert retry_after_seconds(formatdate(now - 90, usegmt=True), now) == 0.0
    assert retry_after_seconds("soon", now) is None and retry_after_seconds(None, now) is None


def test_backoff_doubles_with_jitter_and_is_capped():
    backoff = Backoff(base=1.0, cap=10.0, jitter=0.25)
    for errors, low in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0)]:
        assert low <= backoff.delay(errors) <= min(10.0, low * 1.25)
    assert backoff.delay(10) == 10.0 and backoff.delay(0) == 0.0


def failing_first(prefix: str, failures: int, reply):
    """The site's job pages answer ``reply()`` to the first ``failures`` job requests, then normally."""
    pages = site(prefix, jobs=3)
    seen = {"n": 0}

    def route(path, headers):
        if path.startswith(f"{prefix}/jobs/"):
            seen["n"] += 1
            if seen["n"] <= failures:
                return reply()
        return pages(path, headers)

    return route


@pytest.mark.parametrize("form", ["seconds", "http-date"])
def test_retry_after_pushes_the_next_request(pool, form):
    def unavailable():
        value = "2" if form == "seconds" else formatdate(time.time() + 3, usegmt=True)
        return Reply(status=503, body=b"busy", headers={"Retry-After": value, "Content-Type": "text/plain"})

    with ScriptedServer(failing_first("/ra", 1, unavailable)) as server:
        import_sources(pool, parse_sources({"sources": [source("ra", server.url, "/ra")]}))
        crawl("href", "ra", "POLITENESS_BACKOFF_BASE=0.05", "POLITENESS_BACKOFF_JITTER=0")
    jobs = [h for h in sorted(server.hits, key=lambda h: h.start) if h.path.startswith("/ra/jobs/")]
    assert jobs[1].start - jobs[0].start >= 2.0
    assert len({h.path for h in jobs}) == 3 and len(jobs) == 4  # the 503 page was retried once, then fetched
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM source_versions").fetchone()["n"] == 3


def test_a_429_storm_backs_off_exponentially_and_recovers(pool):
    too_many = lambda: Reply(status=429, body=b"slow down", headers={"Content-Type": "text/plain"})  # noqa: E731
    with ScriptedServer(failing_first("/storm", 4, too_many)) as server:
        import_sources(pool, parse_sources({"sources": [source("storm", server.url, "/storm")]}))
        crawl("href", "storm", "POLITENESS_MIN_INTERVAL=0.1",
              "POLITENESS_BACKOFF_BASE=0.3", "POLITENESS_BACKOFF_JITTER=0", "RETRY_TIMES=5")
    jobs = [h for h in sorted(server.hits, key=lambda h: h.start) if h.path.startswith("/storm/jobs/")]
    gaps = [b.start - a.start for a, b in zip(jobs, jobs[1:])]
    assert len(jobs) == 7  # 4 refused, then the 3 pages
    # backoff after the 1st..4th 429: 0.3, 0.6, 1.2, 2.4 s (the lower bounds show the doubling; the upper ones
    # leave room for a loaded machine, which stretches every gap)
    for gap, expected in zip(gaps[:4], [0.3, 0.6, 1.2, 2.4]):
        assert expected <= gap < expected + 1.0, gaps
    # recovered: back to the base interval (0.1 s), far below the next step of a backoff still running (4.8 s)
    assert all(gap < 1.2 for gap in gaps[4:]), gaps
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM source_versions").fetchone()["n"] == 3
        assert conn.execute("SELECT error_count FROM politeness_keys").fetchone()["error_count"] == 0


def test_a_killed_crawl_with_a_request_in_flight_frees_its_key_at_once(pool):
    started = threading.Event()
    pages = site("/k", jobs=1)

    def route(path, headers):
        if path.startswith("/k/jobs/"):
            started.set()
            return Reply(body=b"<html>late</html>", delay=20)
        return pages(path, headers)

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources({"sources": [source("killed", server.url, "/k")]}))
        process = subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "href", "-a", "source=killed",
                                    "-s", "POLITENESS_MIN_INTERVAL=0", "-s", "POLITENESS_LEASE_SECONDS=120",
                                    "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1"], cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert started.wait(60), "the crawl never reached the job page"
            process.send_signal(signal.SIGKILL)
            process.wait(10)
            killed_at = time.monotonic()
            limiter = Limiter(pool, lease_seconds=3)
            policy = Policy(key="127.0.0.1", interval=0)
            # The dead process's lease names a liveness key that went with its connection (not its 120 s expiry).
            while not isinstance(outcome := limiter.try_acquire(policy), Lease):
                assert time.monotonic() - killed_at < 10
                time.sleep(0.1)
            assert time.monotonic() - killed_at <= 2.0
            limiter.release(outcome)
        finally:
            if process.poll() is None:
                process.kill()


def test_a_crawl_closed_early_requests_no_page_that_was_still_waiting_for_its_key(pool):
    # CLOSESPIDER_ITEMCOUNT (what `sources try --pages N` sets) closes the crawl; Scrapy's close waits for every
    # request in progress, and the requests queued at the politeness gate are in progress: each took the key in
    # turn, one interval apart, and read pages past the close (a try of 5 pages read 21, for ten minutes).
    with ScriptedServer(site("/c", jobs=8)) as server:
        import_sources(pool, parse_sources({"sources": [source("closing", server.url, "/c")]}))
        result = crawl("href", "closing", "CLOSESPIDER_ITEMCOUNT=2", "POLITENESS_MIN_INTERVAL=1")
        read = [hit.path for hit in server.hits if hit.path.startswith("/c/jobs/")]
    assert 2 <= len(read) <= 3, read  # the two stored and at most one already on its way
    assert "fetch failed" not in result.stderr  # a page the close dropped is not the site's failure
