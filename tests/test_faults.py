"""Faults that lose nothing and free everything at once (docs/faults.md): a database whose connections are cut
while a crawl runs, a killed crawl's politeness key, a database that cannot be reached. Real PostgreSQL, real
processes, real HTTP on 127.0.0.1; each test failed on the code before it."""

import signal
import subprocess
import sys
import threading
import time

import psycopg
import pytest

from scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import ROOT, scrapy_command, start_crawl, wait_for_run


def cut_connections(url: str) -> int:
    """What a database restart does to every client: each backend of the database but ours terminated."""
    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()[0]


def test_connections_cut_during_a_crawl_never_let_a_second_crawl_in_nor_mark_live_jobs_gone(pool, database_url):
    with ScriptedServer(site("/r", jobs=8, job_delay=0.5)) as server:
        import_sources(pool, parse_sources([source("r", server.url, "/r")]))
        scrapy_command("crawl", "href", "-a", "source=r", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
                       "-s", "POLITENESS_MIN_INTERVAL=0", "-s", "MARKDOWN_DIR=")  # a complete run: 8 live jobs
        first = start_crawl("r")
        try:
            running = wait_for_run(database_url)
            time.sleep(1.0)
            assert cut_connections(database_url) >= 1
            second = scrapy_command("crawl", "href", "-a", "source=r", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
                                    "-s", "POLITENESS_MIN_INTERVAL=0", "-s", "MARKDOWN_DIR=")
        finally:
            out, err = first.communicate(timeout=120)
    assert second.returncode == 3, second.stderr[-3000:]
    assert f"run {running['id']}" in second.stderr and f"pid {first.pid}" in second.stderr
    assert first.returncode == 0, err[-3000:]
    with pool.connection() as conn:
        outcomes = [r["outcome"] for r in conn.execute("SELECT outcome FROM crawl_runs ORDER BY id")]
        live = conn.execute("SELECT count(*) AS n FROM jobs WHERE gone_at IS NULL").fetchone()["n"]
        gone = conn.execute("SELECT count(*) AS n FROM job_events WHERE kind = 'gone'").fetchone()["n"]
    assert outcomes == ["finished", "finished"] and live == 8 and gone == 0


def test_a_connection_cut_while_a_page_is_stored_loses_no_page(pool, database_url):
    # A restart or a failover can cut the connection in the middle of one page's transaction: the transaction is
    # rolled back whole, so the page is stored again on a fresh connection instead of being lost to the run.
    slow = ("CREATE FUNCTION slow_store() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "IF NEW.url LIKE '%/jobs/3.html' THEN PERFORM pg_sleep(3); END IF; RETURN NEW; END $$")
    cut: list[int] = []

    def cut_the_sleeping_store():
        deadline = time.monotonic() + 60
        with psycopg.connect(database_url, autocommit=True) as conn:
            while not cut and time.monotonic() < deadline:
                cut.extend(r[0] for r in conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND wait_event = 'PgSleep' AND pid <> pg_backend_pid()"))
                time.sleep(0.05)

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(slow)
        conn.execute("CREATE TRIGGER slow_store BEFORE INSERT ON source_versions FOR EACH ROW "
                     "EXECUTE FUNCTION slow_store()")
    try:
        with ScriptedServer(site("/s", jobs=5)) as server:
            import_sources(pool, parse_sources([source("s", server.url, "/s")]))
            cutter = threading.Thread(target=cut_the_sleeping_store)
            cutter.start()
            result = scrapy_command("crawl", "href", "-a", "source=s", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
                                    "-s", "POLITENESS_MIN_INTERVAL=0", "-s", "MARKDOWN_DIR=")
            cutter.join()
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("DROP TRIGGER IF EXISTS slow_store ON source_versions")
            conn.execute("DROP FUNCTION IF EXISTS slow_store()")
    assert cut == [True], "the store of /s/jobs/3.html was never seen sleeping"
    assert result.returncode == 0, result.stderr[-3000:]
    with pool.connection() as conn:
        outcome = conn.execute("SELECT outcome FROM crawl_runs").fetchone()["outcome"]
        stored = {r["url"].rsplit("/", 1)[-1] for r in conn.execute("SELECT url FROM source_versions")}
        live = conn.execute("SELECT count(*) AS n FROM jobs WHERE gone_at IS NULL").fetchone()["n"]
    assert outcome == "finished" and live == 5
    assert {f"{i}.html" for i in range(5)} <= stored


def test_only_the_open_runs_owner_finishes_it_or_marks_jobs_gone(pool):
    from gigflow.runs import queries
    from gigflow.store import jobs

    import_sources(pool, parse_sources([source("o", "http://127.0.0.1:9", "/o")]))
    with pool.connection() as conn:
        old, taken = (conn.execute("INSERT INTO crawl_runs (source_id, spider, owner_token, finished_at, outcome) "
                                   "VALUES ('o', 'href', %s, now(), %s) RETURNING id", (token, outcome)
                                   ).fetchone()["id"] for token, outcome in (("a", "finished"), ("b", "incomplete:abandoned")))
        conn.execute("INSERT INTO jobs (canonical_key, source_id, title, confidence, parser_key, parser_version, "
                     "last_run_id) VALUES ('k', 'o', 'Job', 1, 'p', '1', %s)", (old,))
        # the run was closed (abandoned) by someone else: its former owner marks nothing gone, finishes nothing
        assert jobs.mark_gone(conn, "o", "href", taken, "b") == 0
        assert not queries.finish_run(conn, taken, "b", "finished", {})
        mine = conn.execute("INSERT INTO crawl_runs (source_id, spider, owner_token) VALUES ('o', 'href', 'c') "
                            "RETURNING id").fetchone()["id"]
        assert jobs.mark_gone(conn, "o", "href", mine, "not-mine") == 0  # a wrong token: nothing
        assert jobs.mark_gone(conn, "o", "href", mine, "c") == 1


def test_no_request_of_the_run_goes_to_a_key_after_its_first_challenge(pool):
    from helpers import FIXTURES, crawl_sequence

    challenge = (FIXTURES / "challenges" / "cloudflare-interstitial.html").read_bytes()
    pages = site("/w", jobs=8)

    def route(path, headers):
        reply = pages(path, headers)
        if "/jobs/" in path:
            reply.status, reply.body = 403, challenge
            reply.headers = {"Content-Type": "text/html", "cf-mitigated": "challenge"}
        return reply

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources([source("w", server.url, "/w")]))
        assert crawl_sequence(("href", "w", {"POLITENESS_MIN_INTERVAL": 0, "POLITENESS_BACKOFF_BASE": 0.1})) == [0]
        job_hits = [hit for hit in server.hits if "/jobs/" in hit.path]
    with pool.connection() as conn:
        assert conn.execute("SELECT outcome FROM crawl_runs").fetchone()["outcome"] == "incomplete:anti_bot"
    assert len(job_hits) == 1, [hit.path for hit in job_hits]


HOLD_A_LEASE = """
import sys, time
from gigflow.db import get_pool
from gigflow.politeness.keys import Policy
from gigflow.politeness.limiter import Limiter
lease = Limiter(get_pool(), lease_seconds=120).try_acquire(Policy("killed.example", 0.0))
print("held" if not isinstance(lease, float) else "refused", flush=True)
time.sleep(600)
"""


def test_a_killed_holders_politeness_key_is_free_within_seconds(pool):
    from gigflow.politeness.keys import Policy
    from gigflow.politeness.limiter import Limiter

    holder = subprocess.Popen([sys.executable, "-c", HOLD_A_LEASE], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        limiter = Limiter(pool)
        assert isinstance(limiter.try_acquire(Policy("killed.example", 0.0)), float)  # a live holder keeps it
        holder.send_signal(signal.SIGKILL)
        killed = time.monotonic()
        holder.wait(timeout=10)
        while isinstance(lease := limiter.try_acquire(Policy("killed.example", 0.0)), float):
            assert time.monotonic() - killed < 5, "the killed holder's lease still blocks the key"
            time.sleep(0.05)
        limiter.release(lease)
    finally:
        if holder.poll() is None:
            holder.kill()


class CountingScrapyd:
    """A scrapyd node as slow as a loaded one: schedule.json answers after ``delay`` s, and daemonstatus.json counts
    every job scheduled so far as pending (as scrapyd's queue does)."""

    def __init__(self, delay: float):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        jobs, node = [], self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                self.answer({"status": "ok", "running": 0, "pending": len(jobs), "finished": 0})

            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                time.sleep(node.delay)
                jobs.append(self.path)
                self.answer({"status": "ok", "jobid": str(len(jobs))})

            def answer(self, data):
                import json

                body = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.delay, self.jobs = delay, jobs
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def test_concurrent_schedule_passes_count_node_slots_once_and_skip_a_dead_node(pool):
    import socket
    from concurrent.futures import ThreadPoolExecutor

    from gigflow.scheduling.scrapyd import ScheduleRequest, schedule_due

    import_sources(pool, parse_sources([source(f"s{i}", "http://127.0.0.1:1", f"/s{i}") for i in range(8)]))
    node = CountingScrapyd(delay=0.5)
    silent = socket.socket()  # a node that accepts connections and never answers
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    dead_url = f"http://127.0.0.1:{silent.getsockname()[1]}"
    request = ScheduleRequest(nodes=[(node.url, 2), (dead_url, 2)], project="gigflow", spiders=frozenset({"href"}),
                              claim_seconds=600, timeout=1.0)
    try:
        with ThreadPoolExecutor(3) as passes:
            outcomes = list(passes.map(lambda _: schedule_due(pool, request), range(3)))
    finally:
        node.close()
        silent.close()
    assert len(node.jobs) == 2  # two slots, however many passes ran at once
    scheduled = [r for results, _ in outcomes for r in results if r.job_id]
    assert len(scheduled) == 2 and all(r.node == node.url for r in scheduled)
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM crawl_claims").fetchone()["n"] == 2


def test_a_killed_crawls_claim_and_run_are_released_by_the_sweep(pool, database_url):
    with ScriptedServer(site("/c", jobs=4, job_delay=2.0)) as server:
        import_sources(pool, parse_sources([source("c", server.url, "/c")]))
        crawling = start_crawl("c", "CRAWL_HEARTBEAT_SECONDS=10")
        try:
            run = wait_for_run(database_url)
            deadline = time.monotonic() + 30
            while True:  # the crawl holds its source's claim once its spider is open
                with pool.connection() as conn:
                    if conn.execute("SELECT count(*) AS n FROM crawl_claims WHERE holder_lock IS NOT NULL"
                                    ).fetchone()["n"]:
                        break
                assert time.monotonic() < deadline, "the crawl never held its claim"
                time.sleep(0.05)
        finally:
            crawling.send_signal(signal.SIGKILL)
            crawling.wait(timeout=30)
        from gigflow.scheduling.claims import due_sources

        # The next schedule-due pass takes it again as soon as the server has ended the killed crawl's session
        # (which releases its lock; on a busy machine that takes a moment after the kill).
        deadline = time.monotonic() + 15
        while True:
            with pool.connection() as conn:
                due = due_sources(conn, None)
            if [row.id for row in due] == ["c"] or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        assert [row.id for row in due] == ["c"]
        swept = scrapy_command("sources", "sweep")
    assert swept.returncode == 0, swept.stderr
    assert f"run {run['id']}" in swept.stdout and "1 dead claim(s) released" in swept.stdout, swept.stdout
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM crawl_claims").fetchone()["n"] == 0
        assert conn.execute("SELECT outcome FROM crawl_runs").fetchone()["outcome"] == "incomplete:abandoned"


def test_a_killed_link_check_leaves_its_unchecked_links_due_soon(pool):
    from test_maintenance_links import ROUTES, LinkServer, add_jobs

    slow = {f"/slow?n={i}": ROUTES["/slow"] for i in range(4)}
    ROUTES.update(slow)
    with LinkServer() as server:
        ids = add_jobs(pool, server.url, list(slow))
        with pool.connection() as conn:
            conn.execute("UPDATE canonical_jobs SET next_check_at = now() - interval '1 minute'")
        checking = subprocess.Popen(
            [sys.executable, "-m", "scrapy", "jobs", "check-links", "-s", "POLITENESS_MIN_INTERVAL=0",
             "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "LINKCHECK_TICK_SECONDS=86400",
             "-s", "LINKCHECK_TIMEOUT=10"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while not server.requests:
                assert time.monotonic() < deadline, "the link check never started"
                time.sleep(0.05)
        finally:
            checking.send_signal(signal.SIGKILL)
            checking.wait(timeout=30)
            for path in slow:
                ROUTES.pop(path)
    with pool.connection() as conn:
        rows = conn.execute("SELECT id, extract(epoch FROM next_check_at - now()) AS due_in FROM canonical_jobs "
                            "WHERE id NOT IN (SELECT canonical_id FROM link_checks)").fetchall()
    assert len(rows) >= 3 and len(ids) == 4
    assert all(row["due_in"] <= 900 for row in rows), rows  # due again within the claim, not a day on


def test_a_maintenance_job_left_running_by_a_killed_worker_is_run_again(pool, database_url):
    with pool.connection() as conn:
        worker = conn.execute("INSERT INTO procrastinate_workers (last_heartbeat) VALUES (now() - interval '1 hour')"
                              " RETURNING id").fetchone()["id"]
        job = conn.execute("INSERT INTO procrastinate_jobs (queue_name, task_name, args) VALUES ('maintenance', "
                           "'gigflow:maintenance_tick', '{\"timestamp\": 0}') RETURNING id").fetchone()["id"]
        conn.execute("UPDATE procrastinate_jobs SET status = 'doing', worker_id = %s WHERE id = %s", (worker, job))
    working = subprocess.Popen([sys.executable, "-m", "scrapy", "jobs", "worker"], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            with pool.connection() as conn:
                left = conn.execute("SELECT status FROM procrastinate_jobs WHERE id = %s", (job,)).fetchone()
            if left is None or left["status"] not in ("doing", "todo"):
                break
            assert time.monotonic() < deadline, f"the stalled job is still {left['status']}"
            time.sleep(0.2)
    finally:
        working.send_signal(signal.SIGKILL)
        working.wait(timeout=30)
    assert left is None or left["status"] == "succeeded", left  # retried, run (and deleted when done)


def jobs_table_updates(pool) -> tuple[int, int]:
    with pool.connection() as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'jobs'").fetchone()
    return row["n_tup_upd"], row["n_tup_hot_upd"]


def settled_jobs_table_updates(pool, quiet: float = 1.5, limit: float = 15.0) -> tuple[int, int]:
    """The counts once no backend has reported more for ``quiet`` seconds: the first crawl's last updates may reach
    the statistics after it has ended (a loaded machine), and must not count as the second crawl's."""
    deadline, counts, since = time.monotonic() + limit, jobs_table_updates(pool), time.monotonic()
    while time.monotonic() - since < quiet and time.monotonic() < deadline:
        time.sleep(0.2)
        latest = jobs_table_updates(pool)
        if latest != counts:
            counts, since = latest, time.monotonic()
    return counts


def test_a_recrawl_of_unchanged_jobs_only_touches_their_sighting_as_hot_updates(pool):
    from helpers import crawl

    with ScriptedServer(site("/h", jobs=6)) as server:
        import_sources(pool, parse_sources([source("h", server.url, "/h")]))
        crawl("href", "h")
        with pool.connection() as conn:
            before_rows = {r["id"]: r for r in conn.execute("SELECT id, fields, evidence, last_run_id FROM jobs")}
        updates, hot = settled_jobs_table_updates(pool)
        crawl("href", "h")
    # The crawl's backends report their statistics as they end or, idle, within PostgreSQL's 10 s stats interval.
    deadline = time.monotonic() + 25
    while ((counts := jobs_table_updates(pool))[0] - updates < 6 or counts[1] - hot < 1) \
            and time.monotonic() < deadline:
        time.sleep(0.2)
    updates_after, hot_after = counts
    with pool.connection() as conn:
        after = {r["id"]: r for r in conn.execute("SELECT id, fields, evidence, last_run_id FROM jobs")}
    assert len(after) == 6 and all(after[i]["last_run_id"] != before_rows[i]["last_run_id"] for i in after)
    assert updates_after - updates == 6  # one narrow update per unchanged job
    # HOT-friendly: the sighting touches no indexed column (the old code changed last_run_id, indexed: 0 of 6 HOT,
    # always). Whether each eligible update is HOT also depends on room left on the row's page, which depends on when
    # PostgreSQL last pruned it (1 to 6 of 6 seen): so the test reads the indexes and asks for HOT at all.
    with pool.connection() as conn:
        indexed = {row["attname"] for row in conn.execute(
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = 'jobs'::regclass")}
    assert not indexed & {"last_seen", "last_run_id"}
    assert hot_after - hot >= 1


def test_markdown_files_live_inside_the_home_are_migrated_there_and_pruned_with_their_versions(pool, tmp_path,
                                                                                                monkeypatch):
    from helpers import crawl
    from gigflow.store import retention, versions

    home = tmp_path / "home"
    monkeypatch.setenv("GIGFLOW_HOME", str(home))
    with ScriptedServer(site("/m", jobs=2)) as server:
        import_sources(pool, parse_sources([source("m", server.url, "/m")]))
        crawl("href", "m", "MARKDOWN_DIR=markdown")
        written = sorted((home / "markdown" / "m").glob("*.md"))
        assert len(written) == 2 and not (tmp_path / ".gigflow").exists()
        # A home from before: its files in the old shared place, none inside the home yet.
        legacy = tmp_path / ".gigflow" / "markdown" / "m"
        legacy.mkdir(parents=True)
        for path in written:
            (legacy / path.name).write_text("from the old place", encoding="utf-8")
        for path in (home / "markdown").rglob("*"):
            if path.is_file():
                path.unlink()
    # The files move in with the schema migrations: `scrapy db upgrade`, or any command's first use of the
    # database for a user who never runs it (here `scrapy sources list` in a second home); a crawl never moves them.
    upgraded = scrapy_command("db", "upgrade")
    assert "copied 2 Markdown file(s)" in upgraded.stdout, upgraded.stderr[-2000:]
    listed = scrapy_command("sources", "list", env={"GIGFLOW_HOME": str(tmp_path / "home2")})
    assert listed.returncode == 0, listed.stderr[-2000:]
    for folder in (home / "markdown" / "m", tmp_path / "home2" / "markdown" / "m"):
        assert sorted(p.name for p in folder.glob("*.md")) == [p.name for p in written]
        assert all(p.read_text(encoding="utf-8") == "from the old place" for p in folder.glob("*.md"))

    # Pruning a version deletes its file; a file another version still stands for stays.
    with pool.connection() as conn:
        url = "https://m.example/jobs/1"
        old = versions.store_fetch(conn, {"source_id": "m", "url": url, "http_status": 200, "content_type": "text/html",
                                          "etag": None, "last_modified": None, "sha256": "a" * 64, "size": 3,
                                          "body": b"old", "markdown": "# old", "preparation": None,
                                          "jobs_digest": None})
        versions.store_fetch(conn, {"source_id": "m", "url": url, "http_status": 200, "content_type": "text/html",
                                    "etag": None, "last_modified": None, "sha256": "b" * 64, "size": 3, "body": b"new",
                                    "markdown": "# new", "preparation": None, "jobs_digest": None})
        conn.execute("UPDATE source_versions SET last_fetched_at = now() - interval '40 days' WHERE id = %s",
                     (old.id,))
    files = {sha: home / "markdown" / "m" / f"{sha[:16]}.md" for sha in ("a" * 64, "b" * 64)}
    for path in files.values():
        path.write_text("# page", encoding="utf-8")
    counts = retention.prune(pool, 30, markdown_dir="markdown")
    assert counts.versions == 1 and counts.files == 1
    assert not files["a" * 64].exists() and files["b" * 64].exists() and len(list(legacy.glob("*.md"))) == 2


def test_prune_deletes_old_runs_and_their_health_but_keeps_what_is_needed(pool):
    from gigflow.store import retention

    import_sources(pool, parse_sources([source("p", "http://127.0.0.1:9", "/p")]))
    with pool.connection() as conn:
        ids = [conn.execute("INSERT INTO crawl_runs (source_id, spider, started_at, finished_at, outcome) VALUES "
                            "('p', 'href', now() - interval '400 days', now() - interval '400 days', %s) RETURNING id",
                            (outcome,)).fetchone()["id"]
               for outcome in ["finished", "incomplete:fetch_failed", "finished", "incomplete:anti_bot", "incomplete:x"]]
        for run_id in ids:
            conn.execute("INSERT INTO run_health (run_id, source_id, spider, complete, health) VALUES "
                         "(%s, 'p', 'href', true, '{}')", (run_id,))
        conn.execute("INSERT INTO jobs (canonical_key, source_id, title, confidence, parser_key, parser_version, "
                     "last_run_id) VALUES ('k', 'p', 'Job', 1, 'p', '1', %s)", (ids[0],))
    assert retention.prune_runs(pool, 180, keep=1) == 2  # not: the job's, the last complete one, the newest
    with pool.connection() as conn:
        kept = [r["id"] for r in conn.execute("SELECT id FROM crawl_runs ORDER BY id")]
        health = conn.execute("SELECT count(*) AS n FROM run_health").fetchone()["n"]
    assert kept == [ids[0], ids[2], ids[4]] and health == 3


def test_commands_started_without_a_database_fail_in_seconds_with_one_line():
    from helpers import run_scrapy

    for run, args, url in ((run_scrapy, ("jobs",), "postgresql://postgres@127.0.0.1:1/gigflow"),
                           (scrapy_command, ("crawl", "href", "-a", "source=x", "-s", "LOG_ENABLED=False"),
                            "postgresql://127.0.0.1:1/x"),
                           (scrapy_command, ("db", "status"), "postgresql://[bad")):
        started = time.monotonic()
        result = run(*args, env={"GIGFLOW_DATABASE_URL": url, "GIGFLOW_DATABASE_WAIT": "2"}, timeout=60)
        took = time.monotonic() - started
        lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
        assert result.returncode != 0 and took < 20, (args, took)
        assert len(lines) == 1 and lines[0].startswith("error: cannot reach the database at "), lines
        assert "GIGFLOW_DATABASE_URL" in lines[0] and "Traceback" not in result.stderr


def test_a_database_gone_past_the_limit_stops_the_crawl_as_incomplete_database(pool, database_url, admin_database_url):
    from psycopg.conninfo import conninfo_to_dict

    name = conninfo_to_dict(database_url)["dbname"]
    with ScriptedServer(site("/d", jobs=30, job_delay=0.3)) as server:
        import_sources(pool, parse_sources([source("d", server.url, "/d")]))
        crawling = start_crawl("d", "DATABASE_OUTAGE_SECONDS=2", "DATABASE_FINALIZE_WAIT=20",
                               env={"GIGFLOW_POOL_TIMEOUT": "1"})
        try:
            wait_for_run(database_url)
            time.sleep(1.0)
            with psycopg.connect(admin_database_url, autocommit=True) as admin:
                admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))
                gone = time.monotonic()
                hits_at_outage = len(server.hits)
                time.sleep(4.5)
                hits_after = len(server.hits)
                admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
            out, err = crawling.communicate(timeout=60)
            stopped_in = time.monotonic() - gone
        finally:
            if crawling.poll() is None:
                crawling.kill()
            with psycopg.connect(admin_database_url, autocommit=True) as admin:
                admin.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
    with pool.connection() as conn:
        run = conn.execute("SELECT outcome FROM crawl_runs").fetchone()
        gone_jobs = conn.execute("SELECT count(*) AS n FROM jobs WHERE gone_at IS NOT NULL").fetchone()["n"]
    assert run["outcome"] == "incomplete:database", err[-3000:]
    assert crawling.returncode == 0 and gone_jobs == 0 and stopped_in < 30
    assert hits_after - hits_at_outage <= 3  # the crawl stopped fetching: nothing it could not store
    assert "fetch failed" not in err


def test_a_crawl_whose_run_was_closed_by_another_process_stops_and_records_nothing(pool, database_url):
    with ScriptedServer(site("/t", jobs=20, job_delay=0.3)) as server:
        import_sources(pool, parse_sources([source("t", server.url, "/t")]))
        crawling = start_crawl("t")
        try:
            run = wait_for_run(database_url)
            time.sleep(0.5)
            with pool.connection() as conn:  # what a sweep or a crawl that took over does
                conn.execute("UPDATE crawl_runs SET finished_at = now(), outcome = 'incomplete:abandoned' "
                             "WHERE id = %s", (run["id"],))
            closed = time.monotonic()
            out, err = crawling.communicate(timeout=60)
            stopped_in = time.monotonic() - closed
        finally:
            if crawling.poll() is None:
                crawling.kill()
        job_hits = [h for h in server.hits if "/t/jobs/" in h.path]
    with pool.connection() as conn:
        outcome = conn.execute("SELECT outcome FROM crawl_runs WHERE id = %s", (run["id"],)).fetchone()["outcome"]
    assert "is no longer open under this process" in err and crawling.returncode == 1, err[-3000:]
    assert outcome == "incomplete:abandoned" and stopped_in < 15 and len(job_hits) < 20


def test_a_run_whose_finalize_waits_for_its_database_never_freezes_the_other_crawls_of_its_process(pool,
                                                                                                   database_url):
    """Issue 29: finalizing ran its database calls and its retry pauses on the reactor thread, so one run waiting
    for its database froze every other crawl of a batch process meanwhile."""
    with ScriptedServer(site("/quick", jobs=1)) as quick, \
            ScriptedServer(site("/slow", jobs=30, job_delay=0.3), host="127.0.0.2") as slow:
        import_sources(pool, parse_sources([source("quick", quick.url, "/quick"), source("slow", slow.url, "/slow")]))
        crawling = subprocess.Popen(
            [sys.executable, "-m", "scrapy", "crawl", "href", "-a", "sources=quick,slow", "-s",
             "CRAWL_CONCURRENT_SOURCES=2", "-s", "POLITENESS_MIN_INTERVAL=0", "-s",
             "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.0/8", "-s", "MARKDOWN_DIR=", "-s", "CRAWL_HEARTBEAT_SECONDS=0.5"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            with psycopg.connect(database_url, autocommit=True) as blocker:
                deadline = time.monotonic() + 60
                while blocker.execute("SELECT count(*) FROM crawl_runs").fetchone()[0] < 2:
                    assert time.monotonic() < deadline and crawling.poll() is None, "the batch never started"
                    time.sleep(0.05)
                # A database that does not answer the quick run's finalize: a lock on the table it writes health to.
                blocker.execute("BEGIN")
                blocker.execute("LOCK TABLE run_health IN ACCESS EXCLUSIVE MODE")
                with psycopg.connect(database_url, autocommit=True) as watcher:
                    while not watcher.execute("SELECT count(*) FROM pg_locks WHERE relation = 'run_health'::regclass "
                                              "AND NOT granted").fetchone()[0]:
                        assert time.monotonic() < deadline and crawling.poll() is None, "the quick run never closed"
                        time.sleep(0.05)
                before = len([h for h in slow.hits if "/jobs/" in h.path])
                time.sleep(2.0)
                during = len([h for h in slow.hits if "/jobs/" in h.path]) - before
                blocker.execute("COMMIT")
            out, err = crawling.communicate(timeout=120)
        finally:
            if crawling.poll() is None:
                crawling.kill()
    # The slow crawl kept fetching (0.3 s a page) while the quick run waited for its database.
    assert during >= 3, (during, err[-3000:])
    assert crawling.returncode == 0, err[-3000:]
    with pool.connection() as conn:
        outcomes = {r["source_id"]: r["outcome"] for r in conn.execute("SELECT source_id, outcome FROM crawl_runs")}
    assert outcomes == {"quick": "finished", "slow": "finished"}


@pytest.mark.parametrize("args, named", [
    (("db", "backup", "-s", "BACKUP_KEEP=x"), "BACKUP_KEEP"),
    (("db", "prune", "-s", "RUN_RETENTION_DAYS=x"), "RUN_RETENTION_DAYS"),
    (("jobs", "-s", "LISTING_PAGE_SIZE=many"), "LISTING_PAGE_SIZE"),
    (("db", "backup", "--dir", "{file}/backups"), "{file}/backups"),
    (("db", "backup", "--dir", "{file}"), "{file}"),
])
def test_a_bad_setting_or_an_unwritable_place_is_one_line_for_every_command(pool, tmp_path, args, named):
    """Issue 29: only `scrapy crawl` checked settings up front (`scrapy db backup -s BACKUP_KEEP=x` was a ValueError
    traceback), and an unwritable backup folder was a traceback."""
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a folder", encoding="utf-8")
    args = [arg.format(file=in_the_way) for arg in args]
    result = scrapy_command(*args, timeout=60)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-3000:]
    assert len(lines) == 1 and lines[0].startswith("error: ") and named.format(file=in_the_way) in lines[0], lines
    assert not list(tmp_path.glob("**/gigflow-*")), "nothing was written"


def test_sources_try_refuses_an_unwritable_out_file_before_it_reads_any_page(pool, fixture_server, tmp_path):
    import yaml

    from helpers import FIXTURES

    [entry] = yaml.safe_load((FIXTURES / "sources" / "demo.yaml").read_text())["sources"]
    (tmp_path / "demo.yaml").write_text(yaml.safe_dump({"sources": [entry]}).replace("http://127.0.0.1:8765",
                                                                                       fixture_server.url))
    result = scrapy_command("sources", "try", str(tmp_path / "demo.yaml"), "--out", str(tmp_path), "-s",
                            "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "POLITENESS_MIN_INTERVAL=0", timeout=120)
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr[-3000:]
    assert lines == [f"error: --out {tmp_path}: is a folder, not a file"], lines
    assert result.stdout == ""  # refused before the try: no page was read for a result that could not be saved


class _CountingConnection(psycopg.Connection):
    """A real connection that counts the statements its owner sends (the server is the test database), through
    ``conn.execute`` or a cursor of its own (typed rows are read on a cursor with their row factory)."""

    statements = 0


class _CountingCursor(psycopg.Cursor):
    def execute(self, query, params=None, **kwargs):
        _CountingConnection.statements += 1
        return super().execute(query, params, **kwargs)


def statements_sent(database_url, work) -> int:
    """How many statements ``work(pool)`` sends through a pool of its own on the test database."""
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    with ConnectionPool(database_url, min_size=1, max_size=2, connection_class=_CountingConnection,
                        kwargs={"row_factory": dict_row, "cursor_factory": _CountingCursor}) as counted:
        _CountingConnection.statements = 0
        work(counted)
        return _CountingConnection.statements


def test_prune_checks_its_files_in_one_query_per_batch(pool, database_url, tmp_path, monkeypatch):
    """Issue 29: `scrapy db prune` asked one query per pruned file."""
    from gigflow.store import retention, versions

    monkeypatch.setenv("GIGFLOW_HOME", str(tmp_path))

    def sha(n: int) -> str:
        return f"{n:02x}" * 32
    import_sources(pool, parse_sources([source("f", "http://127.0.0.1:9", "/f")]))
    page = {"source_id": "f", "http_status": 200, "content_type": "text/html", "etag": None, "last_modified": None,
            "size": 1, "preparation": None, "jobs_digest": None}
    with pool.connection() as conn:
        for n in range(31):  # 30 old versions of one URL and its newest (kept)
            versions.store_fetch(conn, {**page, "url": "https://f.example/1", "sha256": sha(n),
                                        "body": str(n).encode(), "markdown": f"# {n}"})
        # Another URL's newest version stands for the body of an old one: that file stays.
        versions.store_fetch(conn, {**page, "url": "https://f.example/2", "sha256": sha(3), "body": b"3",
                                    "markdown": "# 3 again"})
        conn.execute("UPDATE source_versions SET last_fetched_at = now() - interval '40 days' "
                     "WHERE url = 'https://f.example/1' AND sha256 <> %s", (sha(30),))
    files = {n: tmp_path / "markdown" / "f" / f"{sha(n)[:16]}.md" for n in range(31)}
    files[0].parent.mkdir(parents=True)
    for n, path in files.items():
        path.write_text(f"# {n}", encoding="utf-8")
    pruned = []
    sent = statements_sent(database_url,
                           lambda counted: pruned.append(retention.prune(counted, 30, markdown_dir="markdown")))
    counts = pruned[0]
    assert counts.versions == 30 and counts.files == 29
    assert sorted(n for n, path in files.items() if path.exists()) == [3, 30]
    assert sent <= 4, sent  # versions, bodies, Markdown, and the files in one batch (was 3 + 30)


def test_the_stale_run_sweep_reads_the_open_runs_once(pool, database_url):
    """Issue 29: the sweep re-read the open runs of each stale run's source (one query per run)."""
    from gigflow.runs.recovery import sweep_stale_runs

    import_sources(pool, parse_sources([source(f"s{n}", "http://127.0.0.1:9", f"/s{n}") for n in range(6)]))
    with pool.connection() as conn:
        for source_id in ("s0", "s0", "s1", "s2", "s3", "s4"):  # owners elsewhere, silent for an hour
            conn.execute("INSERT INTO crawl_runs (source_id, spider, owner_host, owner_pid, heartbeat_at, started_at) "
                         "VALUES (%s, 'href', 'elsewhere', 1, now() - interval '1 hour', now() - interval '1 hour')",
                         (source_id,))
        conn.execute("INSERT INTO crawl_runs (source_id, spider, owner_host, owner_pid, heartbeat_at, started_at) "
                     "VALUES ('s5', 'href', 'elsewhere', 1, now(), now() - interval '1 hour')")  # alive: beat now
    swept = []
    sent = statements_sent(database_url, lambda counted: swept.extend(sweep_stale_runs(counted, 600)))
    with pool.connection() as conn:
        still_open = [r["source_id"] for r in conn.execute("SELECT source_id FROM crawl_runs WHERE finished_at IS NULL")]
    assert len(swept) == 6 and still_open == ["s5"]
    assert sent <= 2, sent  # one read, one update (was a read and an update per run)
