"""Link checks (README "Job maintenance"): each outcome against a real HTTP server on 127.0.0.1, the fetch guard,
broken only after two failures hours apart, HEAD then GET, and the freshness sweep's publish gate."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from scrapy.settings import Settings

from gigflow import api
from gigflow.devserver import BackgroundServer
from helpers import import_source

# path -> (HEAD status, GET status, Location or None, delay seconds)
ROUTES = {
    "/ok": (200, 200, None, 0),
    "/head-refused": (405, 200, None, 0),
    "/forbidden": (403, 403, None, 0),
    "/too-many": (429, 429, None, 0),
    "/gone": (410, 410, None, 0),
    "/missing": (404, 404, None, 0),
    "/down": (503, 503, None, 0),
    "/slow": (200, 200, None, 3),
    "/moved-here": (301, 301, "/ok", 0),
    "/moved-away": (302, 302, "https://jobs.elsewhere.example/positions/9", 0),
}


class LinkServer(BackgroundServer):
    def __init__(self):
        self.requests: list[tuple[str, str]] = []
        self.started: list[float] = []  # when each request arrived, by the server's clock
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, method):
                server.requests.append((method, self.path))
                server.started.append(time.monotonic())
                head, get, location, delay = ROUTES.get(self.path, (404, 404, None, 0))
                time.sleep(delay)
                self.send_response(head if method == "HEAD" else get)
                if location:
                    self.send_header("Location", location)
                body = b"<html><body>job</body></html>"
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if method == "GET":
                    self.wfile.write(body)

            def do_HEAD(self):
                self.answer("HEAD")

            def do_GET(self):
                self.answer("GET")

        self._serve(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


def settings(**extra) -> Settings:
    from gigflow import settings as project

    values = Settings()
    values.setmodule(project)
    values.setdict({"POLITENESS_MIN_INTERVAL": 0, "FETCH_ALLOWED_PRIVATE_HOSTS": ["127.0.0.1"],
                    "LINKCHECK_TIMEOUT": 1.0, "POLITENESS_BACKOFF_BASE": 0.05, **extra})
    return values


@pytest.fixture
def server():
    with LinkServer() as running:
        yield running


def add_jobs(pool, base: str, paths: list[str], fields: dict | None = None) -> dict[str, int]:
    """One per-source job per path (its job URL there), resolved to canonical jobs; returns path -> canonical id."""
    import_source(pool, {"id": "links", "company": "Acme Works", "canonical_url": f"{base}/",
                         "strategies": [{"type": "sitemap", "sitemap_urls": [f"{base}/sitemap.xml"]}]}, base)
    with pool.connection() as conn:
        for i, path in enumerate(paths):
            conn.execute("INSERT INTO jobs (canonical_key, source_id, title, url, fields, confidence, parser_key,"
                         " parser_version) VALUES (%s, 'links', %s, %s, %s, 0.9, 'jsonld', '1')",
                         (f"url:{base}{path}", f"Role {i}", f"{base}{path}",
                          json.dumps({"employer": "Acme Works", "location": f"City {i}", **(fields or {})})))
    api.resolve(settings=settings())
    with pool.connection() as conn:
        rows = conn.execute("SELECT j.url, l.canonical_id FROM jobs j JOIN canonical_links l ON l.job_id = j.id")
        return {row["url"][len(base):]: row["canonical_id"] for row in rows}


def latest(pool, canonical_id):
    with pool.connection() as conn:
        job = conn.execute("SELECT link_status FROM canonical_jobs WHERE id = %s", (canonical_id,)).fetchone()
        check = conn.execute("SELECT * FROM link_checks WHERE canonical_id = %s ORDER BY id DESC LIMIT 1",
                             (canonical_id,)).fetchone()
    return job["link_status"], check


def test_each_answer_gets_its_outcome(pool, server):
    paths = ["/ok", "/head-refused", "/forbidden", "/too-many", "/moved-here", "/moved-away"]
    ids = add_jobs(pool, server.url, paths)
    api.check_links([ids[p] for p in paths], settings=settings())
    assert latest(pool, ids["/ok"])[0] == "ok"
    status, check = latest(pool, ids["/head-refused"])
    assert (status, check["method"], check["status"]) == ("ok", "GET", 200)
    assert [r for r in server.requests if r[1] == "/head-refused"] == [("HEAD", "/head-refused"),
                                                                      ("GET", "/head-refused")]
    assert latest(pool, ids["/forbidden"])[0] == "unverifiable"
    assert latest(pool, ids["/too-many"])[0] == "unverifiable"
    assert latest(pool, ids["/moved-here"])[0] == "ok"  # a same-site redirect is followed
    status, check = latest(pool, ids["/moved-away"])
    assert (status, check["target"]) == ("redirected", "https://jobs.elsewhere.example/positions/9")
    assert not any("elsewhere" in path for _, path in server.requests)


@pytest.mark.parametrize("path", ["/gone", "/missing", "/down", "/slow"])
def test_broken_only_after_two_failures_hours_apart(pool, server, path):
    [canonical_id] = add_jobs(pool, server.url, [path]).values()
    api.check_links([canonical_id], settings=settings())
    status, check = latest(pool, canonical_id)
    assert (status, check["outcome"]) == ("unchecked", "suspect")  # an outage is not evidence of closure
    api.check_links([canonical_id], settings=settings())
    assert latest(pool, canonical_id)[1]["outcome"] == "suspect"  # minutes later: still not confirmed
    with pool.connection() as conn:  # the first failure now lies seven hours back
        conn.execute("UPDATE link_checks SET checked_at = checked_at - interval '7 hours' WHERE canonical_id = %s",
                     (canonical_id,))
    api.check_links([canonical_id], settings=settings())
    status, check = latest(pool, canonical_id)
    assert (status, check["outcome"]) == ("broken", "broken")
    if path == "/slow":
        assert "timed out" in check["error"]
    with pool.connection() as conn:
        kinds = [r["kind"] for r in conn.execute("SELECT kind FROM canonical_events WHERE canonical_id = %s",
                                                 (canonical_id,))]
    assert "link_broken" in kinds


def test_a_success_between_failures_starts_the_count_again(pool, server):
    [canonical_id] = add_jobs(pool, server.url, ["/down"]).values()
    api.check_links([canonical_id], settings=settings())
    ROUTES["/down"], saved = (200, 200, None, 0), ROUTES["/down"]
    try:
        api.check_links([canonical_id], settings=settings())
    finally:
        ROUTES["/down"] = saved
    with pool.connection() as conn:
        conn.execute("UPDATE link_checks SET checked_at = checked_at - interval '7 hours'")
    api.check_links([canonical_id], settings=settings())
    assert latest(pool, canonical_id) [1]["outcome"] == "suspect"


def test_the_fetch_guard_applies(pool, server):
    [canonical_id] = add_jobs(pool, server.url, ["/ok"]).values()
    api.check_links([canonical_id], settings=settings(FETCH_ALLOWED_PRIVATE_HOSTS=[]))
    status, check = latest(pool, canonical_id)
    assert check["outcome"] == "refused" and "loopback" in check["error"] and status == "unchecked"
    assert server.requests == []


def test_the_daily_sweep_checks_a_share_per_tick(pool, server):
    ids = add_jobs(pool, server.url, [f"/ok?n={i}" for i in range(12)])
    with pool.connection() as conn:
        conn.execute("UPDATE canonical_jobs SET next_check_at = now() - interval '1 minute'")
    # 12 jobs, a check each per 24 hours, a tick every 2 hours: one tick checks 1 job
    api.check_links(settings=settings(LINKCHECK_TICK_SECONDS=7200))
    with pool.connection() as conn:
        checked = conn.execute("SELECT count(DISTINCT canonical_id) AS n FROM link_checks").fetchone()["n"]
    assert checked == 1 and len(ids) == 12


def test_publish_gate_expiry_and_staleness(pool, server):
    ids = add_jobs(pool, server.url, ["/ok", "/gone"], fields={
        "description": "Build and run things. " * 20, "apply_url": None, "date_posted": "2026-11-01"})
    with pool.connection() as conn:
        conn.execute("UPDATE jobs SET fields = fields || '{\"valid_through\": \"2020-01-31\"}' WHERE url LIKE %s",
                     ("%/gone",))
    counts = api.refresh(settings=settings())
    assert counts["published"] == 1 and counts["expired"] == 1
    exported = {row["id"]: row for row in api.jobs()}
    published = exported[ids["/ok"]]
    assert published["published_at"] and published["quality_score"] >= 40
    assert set(published["quality_parts"]) >= {"completeness", "evidence", "freshness"}
    assert exported[ids["/gone"]]["expired_at"] and not exported[ids["/gone"]]["published_at"]
    with pool.connection() as conn:
        conn.execute("UPDATE jobs SET last_seen = now() - interval '20 days'")
    counts = api.refresh(settings=settings())
    assert counts["stale"] == 2 and counts["unpublished"] == 1
    assert [row["id"] for row in api.jobs(published=True)] == []


def test_the_sweep_expires_a_job_whose_page_says_it_is_closed(pool, server):
    ids = add_jobs(pool, server.url, ["/ok", "/moved-here"], fields={
        "description": "Build and run things. " * 20, "apply_url": None, "date_posted": "2026-11-01"})
    with pool.connection() as conn:
        conn.execute("UPDATE jobs SET fields = fields || %s WHERE url LIKE %s",
                     (json.dumps({"closed_notice": "This position has been filled."}), "%/moved-here"))
    counts = api.refresh(settings=settings())
    assert counts["published"] == 1 and counts["expired"] == 1
    exported = {row["id"]: row for row in api.jobs()}
    closed = exported[ids["/moved-here"]]
    assert closed["expired_at"] and not closed["published_at"]
    assert closed["closed_notice"] == "This position has been filled."
    assert exported[ids["/ok"]]["published_at"] and not exported[ids["/ok"]]["expired_at"]
    with pool.connection() as conn:
        detail = conn.execute("SELECT detail FROM canonical_events WHERE canonical_id = %s AND kind = 'expired'",
                              (ids["/moved-here"],)).fetchone()["detail"]
        assert detail["closed_notice"] == "This position has been filled."
        # The page no longer says so (reopened): the job is live again.
        conn.execute("UPDATE jobs SET fields = fields - 'closed_notice'")
    assert api.refresh(settings=settings())["unexpired"] == 1


def test_exports_are_safe_for_spreadsheets_and_name_one_job(pool, server):
    import csv
    import io

    from gigflow.maintenance.export import write

    ids = add_jobs(pool, server.url, ["/ok"])
    with pool.connection() as conn:
        conn.execute("UPDATE jobs SET title = %s", ("=HYPERLINK(\"http://evil.example\")",))
    out = io.StringIO()
    assert write(api.jobs(), "csv", out) == 1
    [row] = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert row["title"] == "'=HYPERLINK(\"http://evil.example\")"
    assert api.job(ids["/ok"])["id"] == ids["/ok"] and api.job(ids["/ok"] + 100) is None


def test_checks_wait_their_turn_in_the_shared_politeness_limiter(pool, server):
    ids = add_jobs(pool, server.url, [f"/ok?n={i}" for i in range(3)])
    api.check_links(sorted(ids.values()), settings=settings(POLITENESS_MIN_INTERVAL=0.5))
    gaps = [b - a for a, b in zip(server.started, server.started[1:])]
    assert len(server.started) == 3 and min(gaps) >= 0.45
    with pool.connection() as conn:  # the crawls' own key table: one budget per key for crawls and checks
        assert conn.execute("SELECT key FROM politeness_keys").fetchone()["key"] == "127.0.0.1"


def test_a_host_that_does_not_resolve_is_broken_after_the_confirmation_window(pool):
    base = "http://jobs.gone.test"
    [canonical_id] = add_jobs(pool, base, ["/positions/1"]).values()
    gone = settings(FETCH_RESOLVER_OVERRIDES={"jobs.gone.test": []})  # the name resolves to nothing
    api.check_links([canonical_id], settings=gone)
    status, check = latest(pool, canonical_id)
    assert (status, check["outcome"]) == ("unchecked", "suspect") and "jobs.gone.test" in check["error"]
    with pool.connection() as conn:
        conn.execute("UPDATE link_checks SET checked_at = checked_at - interval '7 hours'")
    api.check_links([canonical_id], settings=gone)
    assert latest(pool, canonical_id)[0] == "broken"
