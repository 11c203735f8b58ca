"""Run integrity: only a complete run marks jobs gone, one crawl per source and strategy at a time, dead runs
and dead queue workers recovered, one bad e-mail never blocks a mailbox. Real HTTP and PostgreSQL; each test
failed on the code before run integrity."""

import secrets
import signal
import time

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from scripted_server import Reply, ScriptedServer, site, source
from gigflow.sources.loader import SourceFileError, parse_sources
from gigflow.sources.repository import import_sources
from helpers import crawl_sequence, eml_folder, import_source, scrapy_command, start_crawl, wait_for_run


def runs(pool):
    with pool.connection() as conn:
        return conn.execute("SELECT * FROM crawl_runs ORDER BY id").fetchall()


def live_jobs(pool):
    with pool.connection() as conn:
        return conn.execute("SELECT count(*) AS n FROM jobs WHERE gone_at IS NULL").fetchone()["n"]


def test_a_broken_listing_marks_nothing_gone_and_says_why(pool):
    pages = site("/b", jobs=3)
    listing_hits = []
    broken = [None,  # the first crawl reads a good listing
              Reply(body=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64), headers={}),  # no type, not HTML
              Reply(body=b"<html><body><p>Our vacancies are loading...</p></body></html>"),  # an empty 200
              Reply(status=500, body=b"oops")]

    def route(path, headers):
        if path == "/b/":
            listing_hits.append(path)
            reply = broken[min(len(listing_hits), len(broken)) - 1]
            if reply is not None:
                return reply
        return pages(path, headers)

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources([source("b", server.url, "/b")]))
        crawl_sequence(*[("href", "b", {"RETRY_TIMES": 0})] * 4)
    outcomes = [run["outcome"] for run in runs(pool)]
    assert outcomes == ["finished", "incomplete:content_type", "incomplete:empty_listing", "incomplete:fetch_failed"]
    assert live_jobs(pool) == 3
    # A card selector stored before selectors were checked: the crawl refuses to start, naming it.
    with pool.connection() as conn:
        conn.execute("""UPDATE configurations SET strategies = jsonb_set(strategies, '{0,card_selector}',
                                                                          '"li:nth-child(x)"')""")
    refused = scrapy_command("crawl", "href", "-a", "source=b", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1")
    assert refused.returncode != 0 and "strategies[0].card_selector: 'li:nth-child(x)'" in refused.stderr
    assert live_jobs(pool) == 3 and len(runs(pool)) == 4
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM job_events WHERE kind = 'gone'").fetchone()["n"] == 0


def test_invalid_card_selectors_are_refused_at_import():
    entry = {"id": "bad", "company": "Bad", "canonical_url": "https://bad.example/",
             "strategies": [{"type": "href", "listing_urls": ["https://bad.example/"], "card_selector": "li:nth-child(x)"},
                            {"type": "click", "listing_url": "https://bad.example/", "item_selector": "li.job",
                             "detail_selector": "div[[["}]}
    with pytest.raises(SourceFileError) as refused:
        parse_sources([entry])
    assert "strategies[0].card_selector" in str(refused.value) and "strategies[1].detail_selector" in str(refused.value)


def nested_message(depth: int) -> bytes:
    head = b"From: a@example.org\r\nSubject: nested\r\nMessage-ID: <nested@example.org>\r\nMIME-Version: 1.0\r\n"
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i) for i in range(depth))
    closing = b"".join(b"--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\nhello\r\n" + closing


def test_one_bad_message_is_recorded_skipped_and_given_up_after_the_attempts(pool, tmp_path):
    folder = eml_folder(tmp_path / "mail")
    (folder / "0000-nested.eml").write_bytes(nested_message(1000))  # read first
    import_source(pool, {"id": "alerts", "company": "Alerts", "status": "active",
                         "canonical_url": "https://alerts.example/",
                         "strategies": [{"type": "mailbox", "path": str(folder)}]}, "")
    crawl_sequence(*[("mailbox", "alerts", {"MAILBOX_MAX_ATTEMPTS": 2})] * 3)
    stats = [run["stats"] for run in runs(pool)]
    assert stats[0]["gigflow/messages_read"] == 3 and stats[0]["gigflow/messages_failed"] == 1
    assert stats[1]["gigflow/messages_failed"] == 1 and stats[2].get("gigflow/messages_failed", 0) == 0
    assert stats[2]["gigflow/messages_given_up"] == 1
    with pool.connection() as conn:
        [failure] = conn.execute("SELECT * FROM mailbox_failures").fetchall()
    assert failure["message_key"] == "mid:nested@example.org" and failure["attempts"] == 2
    assert "RecursionError" in failure["error"]
    listed = scrapy_command("sources", "list", "-s", "MAILBOX_MAX_ATTEMPTS=2")
    assert "mid:nested@example.org" in listed.stdout and "given up" in listed.stdout


def test_a_second_crawl_of_the_same_source_exits_at_once_and_marks_nothing_gone(pool, database_url):
    with ScriptedServer(site("/slow", jobs=6, job_delay=0.6)) as server:
        import_sources(pool, parse_sources([source("slow", server.url, "/slow")]))
        first = start_crawl("slow")
        try:
            running = wait_for_run(database_url)
            started = time.time()
            second = scrapy_command("crawl", "href", "-a", "source=slow", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1")
            refused_in = time.time() - started
        finally:
            out, err = first.communicate(timeout=120)
    assert second.returncode == 3, second.stderr[-2000:]
    assert "already being crawled with the href strategy" in second.stderr
    assert f"run {running['id']}" in second.stderr and f"pid {first.pid}" in second.stderr
    assert refused_in < 30 and first.returncode == 0, err[-2000:]
    assert [run["outcome"] for run in runs(pool)] == ["finished"] and live_jobs(pool) == 6


def test_a_killed_crawl_is_closed_as_abandoned_by_the_next_run_and_a_sweep_spares_live_runs(pool, database_url):
    from gigflow.runs.lock import CrawlLock
    from gigflow.runs.recovery import sweep_stale_runs

    with ScriptedServer(site("/k", jobs=4, job_delay=1.0)) as server:
        import_sources(pool, parse_sources([source("k", server.url, "/k"), source("live", server.url, "/live")]))
        killed = start_crawl("k", "POLITENESS_LEASE_SECONDS=2")  # its politeness lease outlives it briefly
        dead = wait_for_run(database_url)
        killed.send_signal(signal.SIGKILL)
        killed.wait(timeout=30)
        assert dead["owner_pid"] == killed.pid and dead["owner_host"] and dead["heartbeat_at"]
        with pool.connection() as conn:  # a live run elsewhere: its lock is held, however old its heartbeat
            conn.execute("INSERT INTO crawl_runs (source_id, spider, owner_host, owner_pid, heartbeat_at, started_at)"
                         " VALUES ('live', 'href', 'elsewhere', 1, now() - interval '1 day', now() - interval '1 day')")
        lock = CrawlLock("live", "href")
        assert lock.acquire()
        try:
            swept = sweep_stale_runs(pool, stale_seconds=0)
        finally:
            lock.close()
        assert [run.id for run in swept] == [dead["id"]]
        crawl_sequence(("href", "k"))
    by_source = {(run["source_id"], run["outcome"]) for run in runs(pool)}
    assert by_source == {("k", "incomplete:abandoned"), ("live", None), ("k", "finished")}


def test_a_crawl_whose_database_vanished_exits_non_zero(admin_database_url):
    name = f"gigflow_test_vanish_{secrets.token_hex(3)}"
    with psycopg.connect(admin_database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo(admin_database_url, dbname=name)
    try:
        from gigflow.db.migrate import upgrade

        with ConnectionPool(url, kwargs={"row_factory": dict_row}, open=True) as pool, \
                ScriptedServer(site("/v", jobs=3, job_delay=1.0)) as server:
            upgrade(pool)
            import_sources(pool, parse_sources([source("v", server.url, "/v")]))
            pool.close()
            crawling = start_crawl("v", "DATABASE_OUTAGE_SECONDS=2", "DATABASE_FINALIZE_WAIT=1",
                                   env={"GIGFLOW_DATABASE_URL": url, "GIGFLOW_POOL_TIMEOUT": "1"})  # not the 60 s default
            wait_for_run(url)
            with psycopg.connect(admin_database_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            out, err = crawling.communicate(timeout=120)
    finally:
        with psycopg.connect(admin_database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    assert crawling.returncode != 0
    assert "could not be finalized" in err


def test_a_review_left_running_by_a_dead_worker_is_retried(pool, database_url):
    from gigflow.noise.learn.lifecycle.review_learner import make_learner
    from gigflow.noise.learn.lifecycle.queue import ReviewRuntime, request_review, run_worker
    from gigflow.noise.learn.lifecycle.review import ReviewKind
    from gigflow.noise.learn.settings import NoiseSettings
    from gigflow.sources.repository import get_source

    import_sources(pool, parse_sources([source("n", "http://127.0.0.1:9", "/n")]))
    job_id = request_review(pool, get_source(pool, "n").configuration_id, ReviewKind.manual, reason="test")
    with pool.connection() as conn:
        worker = conn.execute("INSERT INTO procrastinate_workers (last_heartbeat) VALUES (now() - interval '1 hour')"
                              " RETURNING id").fetchone()["id"]
        conn.execute("UPDATE procrastinate_jobs SET status = 'doing', worker_id = %s WHERE id = %s", (worker, job_id))
    run_worker(database_url, ReviewRuntime(pool=pool, learner=make_learner(NoiseSettings(classifier="rules"))),
               once=True)
    with pool.connection() as conn:
        left = conn.execute("SELECT status FROM procrastinate_jobs WHERE id = %s", (job_id,)).fetchone()
        started = conn.execute("SELECT count(*) AS n FROM procrastinate_events WHERE job_id = %s AND type = 'started'",
                               (job_id,)).fetchone()["n"] if left else None
    assert left is None or (left["status"] != "doing" and started), left  # run again (and deleted when done)
