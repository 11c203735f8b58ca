"""Filtered exports read only the jobs they export: `scrapy jobs --format ... --source X` / `--since DATE` pick the
canonical ids from the sightings first and read those canonical jobs by key (issue #29: 5.2 s for a 50-job source
at 100,000 jobs, every canonical job's sub-selects computed before filtering; figures: bench/scale_bench.py
--part export)."""

from datetime import datetime, timedelta, timezone

from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from gigflow.sql import load_queries
from scripted_server import source


def _fill(pool, sources: int = 3, jobs_per_source: int = 4) -> None:
    import_sources(pool, parse_sources({"sources": [source(f"s{i}", "http://127.0.0.1:1", f"/s{i}")
                                                    for i in range(sources)]}))
    with pool.connection() as conn:
        conn.execute("""
            INSERT INTO jobs (canonical_key, source_id, title, url, confidence, parser_key, parser_version, last_seen)
            SELECT s.id || '/' || n, s.id, 'Job ' || n, 'http://127.0.0.1:1/' || s.id || '/' || n, 0.9, 'test', '1',
                   now() - make_interval(days => n)
            FROM sources s, generate_series(1, %(jobs)s) n""", {"jobs": jobs_per_source})
        conn.execute("INSERT INTO canonical_jobs (employer_key) SELECT 'e' || id FROM jobs ORDER BY id")
        conn.execute("INSERT INTO canonical_links (job_id, canonical_id, score) SELECT id, id, 1.0 FROM jobs")
        conn.execute("ANALYZE")


def test_filtered_exports_return_the_sources_and_recent_jobs(pool):
    from gigflow.maintenance.export import canonical_jobs

    _fill(pool)
    by_source = list(canonical_jobs(pool, source_id="s1"))
    assert sorted(row["title"] for row in by_source) == ["Job 1", "Job 2", "Job 3", "Job 4"]
    assert all({s["source_id"] for s in row["sightings"]} == {"s1"} for row in by_source)
    recent = list(canonical_jobs(pool, since=datetime.now(timezone.utc) - timedelta(days=2, hours=12)))
    assert sorted(row["title"] for row in recent) == ["Job 1", "Job 1", "Job 1", "Job 2", "Job 2", "Job 2"]
    assert list(canonical_jobs(pool, since=datetime(2999, 1, 1, tzinfo=timezone.utc))) == []
    assert len(list(canonical_jobs(pool))) == 12


def test_a_source_export_reads_canonical_jobs_by_key(pool):
    _fill(pool)
    with pool.connection() as conn:
        conn.execute("SET enable_seqscan = off")  # tiny tables: ask which indexes the plan can use
        plan = "\n".join(r["QUERY PLAN"] for r in conn.execute(
            "EXPLAIN " + load_queries("gigflow.maintenance", "canonical.sql")["export_canonical"],
            {"source_id": "s1", "published": False, "since": None, "canonical_id": None}))
    # The source's sightings through an index on jobs.source_id, then the canonical jobs by primary key: no filter
    # over them all.
    assert "Index Cond: (source_id = 's1'::text)" in plan, plan
    assert "Index Scan using canonical_jobs_pkey on canonical_jobs c" in plan and "Index Cond: (id = ANY (" in plan, plan
