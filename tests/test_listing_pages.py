"""`scrapy sources list` and `scrapy jobs` read one indexed page at a time (keyset pagination)."""

import json

from scripted_server import source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from gigflow.sql import load_queries
from helpers import scrapy_command


def _fill(pool, sources: int, jobs_per_source: int, runs_per_source: int) -> None:
    import_sources(pool, parse_sources({"sources": [source(f"s{i}", "http://127.0.0.1:1", f"/s{i}") for i in range(sources)]}))
    with pool.connection() as conn:
        conn.execute("""
            INSERT INTO crawl_runs (source_id, spider, started_at, finished_at, outcome)
            SELECT s.id, 'href', now() - make_interval(days => n), now() - make_interval(days => n), 'finished'
            FROM sources s, generate_series(1, %(runs)s) n""", {"runs": runs_per_source})
        conn.execute("""
            INSERT INTO jobs (canonical_key, source_id, title, confidence, parser_key, parser_version, gone_at)
            SELECT s.id || '/' || n, s.id, 'Job ' || lpad(n::text, 3, '0'), 0.9, 'test', '1',
                   CASE WHEN n = 1 THEN now() END
            FROM sources s, generate_series(1, %(jobs)s) n""", {"jobs": jobs_per_source})


def test_sources_list_pages_with_live_job_counts_and_last_crawl(pool):
    _fill(pool, sources=5, jobs_per_source=4, runs_per_source=3)
    first = scrapy_command("sources", "list", "--limit", "2")
    assert first.returncode == 0, first.stderr
    rows = json.loads(scrapy_command("sources", "list", "--limit", "2", "--json").stdout)
    assert [r["id"] for r in rows] == ["s0", "s1"] and all(r["jobs"] == 3 for r in rows)  # 4 jobs, one gone
    assert [line.split()[0] for line in first.stdout.splitlines()[2:4]] == ["s0", "s1"]
    assert "next page: scrapy sources list --after s1" in first.stdout
    rest = scrapy_command("sources", "list", "--after", "s1", "--limit", "10")
    ids = [line.split()[0] for line in rest.stdout.splitlines()[2:] if line.strip()]
    assert ids == ["s2", "s3", "s4"] and "next page" not in rest.stdout
    with pool.connection() as conn:
        page = conn.execute(load_queries("gigflow.sources", "repository.sql")["list_sources"],
                            {"after": "s3", "limit": 5}).fetchall()
        newest = conn.execute("SELECT max(finished_at) AS t FROM crawl_runs WHERE source_id = 's4'").fetchone()["t"]
    assert [(r["id"], r["jobs"], r["last_crawl"]) for r in page] == [("s4", 3, newest)]


def test_jobs_pages_continue_after_the_last_job_shown(pool):
    _fill(pool, sources=2, jobs_per_source=3, runs_per_source=1)
    shown, after = [], None
    for _ in range(4):
        result = scrapy_command("jobs", "--all", "--limit", "2", *(["--after", after] if after else []))
        assert result.returncode == 0, result.stderr
        shown += [line.split()[1:3] for line in result.stdout.splitlines()[2:] if line.split()[1:2] == ["Job"]]
        hint = [line for line in result.stdout.splitlines() if line.startswith("next page:")]
        if not hint:
            break
        assert hint[0].startswith("next page: scrapy jobs --all --after ")
        after = hint[0].rsplit(" ", 1)[1]
    assert [" ".join(t) for t in shown] == ["Job 001", "Job 002", "Job 003"] * 2  # s0's then s1's, each once
    live = scrapy_command("jobs", "--source", "s1")
    assert "Job 001" not in live.stdout and "2 job(s)" in live.stdout


def test_listing_queries_read_through_indexes(pool):
    _fill(pool, sources=3, jobs_per_source=2, runs_per_source=2)
    with pool.connection() as conn:
        conn.execute("SET enable_seqscan = off")  # tiny tables: ask which indexes the plans can use
        plan = "\n".join(r["QUERY PLAN"] for r in conn.execute(
            "EXPLAIN " + load_queries("gigflow.sources", "repository.sql")["list_sources"], {"after": None, "limit": 100}))
        jobs_plan = "\n".join(r["QUERY PLAN"] for r in conn.execute(
            "EXPLAIN " + load_queries("gigflow.store", "jobs.sql")["list_jobs"],
            {"source_id": None, "include_gone": False, "after": 3, "limit": 100}))
    # Live jobs are counted through an index on jobs by source: the partial jobs_listing_live or jobs_source, which
    # the planner weighs alike on tables this small (its pick moved with the jobs table's fillfactor, #29).
    assert "crawl_runs_source_finished" in plan and "SubPlan" not in plan, plan
    assert "jobs_listing_live" in plan or "Index Scan using jobs_source on jobs" in plan, plan
    assert "jobs_listing" in jobs_plan, jobs_plan
