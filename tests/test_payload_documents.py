"""Per-job Markdown of a large feed: one parse per payload version, a cap per payload, and SIGTERM honoured by the
work that runs after the crawl (issue #30 item 1: an 18.7 MB feed re-parsed per job took ~14 s per document)."""

import os
import signal
import subprocess
import sys
import time

from helpers import ROOT, TEST_CRAWL_SETTINGS, crawl, import_source, last_run

ITEMS = 1000


def write_feed(folder, items: int = ITEMS):
    """An RSS feed of ``items`` vacancies, each with an HTML description holding a fact only it has."""
    entries = "".join(
        f"<item><title>Engineer {i}</title><link>http://127.0.0.1/jobs/{i}</link><guid>job-{i}</guid>"
        f"<description>&lt;p&gt;Fact {i}: salary {30000 + i} EUR, &lt;b&gt;site {i % 7}&lt;/b&gt;.&lt;/p&gt;"
        f"&lt;ul&gt;&lt;li&gt;Python&lt;/li&gt;&lt;li&gt;SQL {i}&lt;/li&gt;&lt;/ul&gt;{' Filler text.' * 40}"
        f"</description></item>\n" for i in range(items))
    (folder / "feed.xml").write_text(f'<?xml version="1.0"?><rss version="2.0"><channel><title>Big</title>'
                                     f"{entries}</channel></rss>", encoding="utf-8")


def feed_source(origin: str) -> dict:
    return {"id": "bigfeed", "company": "Feed Co", "status": "active", "canonical_url": f"{origin}/",
            "strategies": [{"type": "feed", "feed_urls": [f"{origin}/feed.xml"]}]}


def feed_crawl_argv() -> list[str]:
    """``scrapy crawl feed`` of the big feed source as its own process, with the test crawl settings."""
    argv = [sys.executable, "-m", "scrapy", "crawl", "feed", "-a", "source=bigfeed"]
    for name, value in TEST_CRAWL_SETTINGS.items():
        argv += ["-s", f"{name}={value}"]
    return argv


def documents(pool) -> dict:
    with pool.connection() as conn:
        rows = conn.execute("SELECT j.title, d.markdown FROM job_documents d JOIN jobs j ON j.id = d.job_id")
        return {row["title"]: row["markdown"] for row in rows}


def test_a_large_feed_is_documented_from_one_parse_within_its_cap(pool, tmp_path):
    from gigflow.devserver import FixtureServer
    from gigflow.documents import DocumentPreparer
    from gigflow.maintenance.job_markdown import document_jobs

    write_feed(tmp_path)
    with FixtureServer(tmp_path) as server:
        import_source(pool, feed_source(server.url), server.url)
        crawl("feed", "bigfeed", "MAINTENANCE_RESOLVE_AFTER_CRAWL=False")
    assert last_run(pool)["outcome"] == "finished"
    client = DocumentPreparer()
    started = time.monotonic()
    capped = document_jobs(pool, client, "bigfeed", max_jobs_per_payload=100)
    assert capped == {"prepared": 100, "unreadable": 0, "capped": ITEMS - 100, "stopped": False}
    rest = document_jobs(pool, client, "bigfeed", max_jobs_per_payload=0)
    elapsed = time.monotonic() - started
    assert rest["prepared"] == ITEMS - 100 and rest["unreadable"] == 0
    # Per job, the old path parsed the whole feed again: about 0.3 s a job here, minutes in all.
    assert elapsed < 40, f"{ITEMS} documents took {elapsed:.1f} s"
    docs = documents(pool)
    assert len(docs) == ITEMS
    for i in (0, 1, 517, ITEMS - 1):
        assert f"Fact {i}: salary {30000 + i} EUR" in docs[f"Engineer {i}"] and f"SQL {i}" in docs[f"Engineer {i}"]


def test_sigterm_stops_the_after_crawl_work(pool, tmp_path, database_url):
    from gigflow.devserver import FixtureServer

    write_feed(tmp_path)
    with FixtureServer(tmp_path) as server:
        import_source(pool, feed_source(server.url), server.url)
        argv = feed_crawl_argv()
        log = tmp_path / "crawl.log"
        with open(log, "w") as stderr:
            process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr,
                                       env={**os.environ, "GIGFLOW_DATABASE_URL": database_url})
            try:
                deadline = time.monotonic() + 120
                # The run is recorded finished just before the after-crawl work starts.
                while (run := last_run(pool)) is None or run["outcome"] is None:
                    assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
                    time.sleep(0.05)
                process.send_signal(signal.SIGTERM)
                stopped = time.monotonic()
                process.wait(timeout=30)
                elapsed = time.monotonic() - stopped
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
    text = log.read_text()
    assert elapsed < 10, f"the crawl process went on {elapsed:.1f} s after SIGTERM"
    assert "after-crawl work of source bigfeed stopped by shutdown" in text, text[-3000:]
    assert len(documents(pool)) < ITEMS


def test_sigterm_while_the_run_finalizes_still_ends_the_finalization(pool, tmp_path, database_url):
    """Finalizing waits for its database in a thread: a SIGTERM meanwhile stopped the reactor (the engine was
    already closed) before the lock was released and source_finalized ran (health, the noise review, the
    after-crawl work). The reactor now waits for the finalization; the after-crawl work sees the shutdown."""
    import psycopg

    from gigflow.devserver import FixtureServer

    write_feed(tmp_path, items=50)
    with FixtureServer(tmp_path) as server:
        import_source(pool, feed_source(server.url), server.url)
        argv = feed_crawl_argv()
        log = tmp_path / "crawl.log"
        with open(log, "w") as stderr, psycopg.connect(database_url, autocommit=True) as blocker:
            process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr,
                                       env={**os.environ, "GIGFLOW_DATABASE_URL": database_url})
            try:
                deadline = time.monotonic() + 120
                while blocker.execute("SELECT count(*) FROM crawl_runs").fetchone()[0] < 1:
                    assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
                    time.sleep(0.05)
                # the finalize transaction writes the run's health: held here until the SIGTERM has come
                blocker.execute("BEGIN")
                blocker.execute("LOCK TABLE run_health IN ACCESS EXCLUSIVE MODE")
                while "Closing spider (finished)" not in log.read_text():
                    assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
                    time.sleep(0.05)
                time.sleep(0.5)
                process.send_signal(signal.SIGTERM)
                time.sleep(1.0)
                blocker.execute("COMMIT")
                process.wait(timeout=60)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
    text = log.read_text()
    assert last_run(pool)["outcome"] == "finished", text[-3000:]
    assert "after-crawl work of source bigfeed stopped by shutdown" in text, text[-3000:]
