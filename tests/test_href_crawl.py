"""The href spider end to end: real HTTP on 127.0.0.1 into a real PostgreSQL."""

import json

from helpers import crawl, import_demo, last_run, run_scrapy, scrapy_command


def counts(pool):
    with pool.connection() as conn:
        return conn.execute("""SELECT (SELECT count(*) FROM source_versions) AS versions,
                                      (SELECT count(*) FROM jobs) AS jobs,
                                      (SELECT count(*) FROM crawl_runs) AS runs""").fetchone()


def test_scrapy_list_prints_href():
    result = run_scrapy("list")
    assert "href" in result.stdout.split()


def test_crawl_twice_stores_one_version_per_page_and_one_row_per_job(pool, fixture_server, tmp_path):
    import_demo(pool, fixture_server)
    out = tmp_path / "jobs.jsonl"
    crawl("href", "demo", "FEEDS={}", timeout=120)
    first = counts(pool)
    assert first == {"versions": 5, "jobs": 5, "runs": 1}
    result = run_scrapy("crawl", "href", "-a", "source=demo", "-O", str(out), "-s", "POLITENESS_MIN_INTERVAL=0",
                        "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "MARKDOWN_DIR=")
    assert result.returncode == 0, result.stderr[-3000:]
    assert counts(pool) == {"versions": 5, "jobs": 5, "runs": 2}
    with pool.connection() as conn:
        run = last_run(pool)
        job = conn.execute("SELECT * FROM jobs WHERE title = 'Data Analyst'").fetchone()
    assert run["outcome"] == "finished"
    assert run["stats"]["gigflow/versions_unchanged"] == 5 and run["stats"]["gigflow/versions_new"] == 0
    assert run["stats"]["gigflow/jobs_updated"] == 5 and run["stats"]["gigflow/jobs_new"] == 0
    assert job["fields"]["employer"] == "Northwind Robotics" and job["evidence"]["title"]["method"] == "jsonld"
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(items) == 5 and all(i["version_status"] == "unchanged" and "body" not in i for i in items)
    item = next(i for i in items if i["url"].endswith("data-analyst.html"))
    # the footer job fact survives preparation; assets do not
    assert "Apply before" in item["markdown"] and "€2,600" in item["markdown"]
    assert "window.analytics" not in item["markdown"]
    assert f"({fixture_server.url}/demo/jobs/benefits.html)" in item["markdown"]
    # robots.txt disallows the apply path: never fetched
    assert not any(path.startswith("/demo/apply") for _, _, path, _ in fixture_server.requests)


def test_unknown_source_is_a_clear_error(pool):
    result = scrapy_command("crawl", "href", "-a", "source=nope")
    assert "unknown source 'nope'" in result.stderr


def test_a_malformed_link_on_the_listing_skips_that_link_only(pool, tmp_path):
    # "http://[oops/" cannot be parsed (a broken IPv6 literal): it raised in the listing's callback, so every run
    # of that source ended incomplete and the links after it were never followed.
    from gigflow.devserver import FixtureServer
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources

    (tmp_path / "jobs").mkdir()
    links = '<a href="http://[oops/">broken</a>'
    for n in range(2):
        (tmp_path / "jobs" / f"{n}.html").write_text(
            f"<html><head><title>Welder {n}</title></head><body><h1>Welder {n}</h1><p>Location: Geel</p>"
            f"<p>{'You weld stainless pipes for dairies in a team of four. ' * 5}</p></body></html>")
        links += f'<a href="/jobs/{n}.html">Welder {n}</a>'
    (tmp_path / "index.html").write_text(f"<html><body><main>{links}</main></body></html>")
    with FixtureServer(tmp_path) as server:
        import_sources(pool, parse_sources([{
            "id": "badlink", "company": "Acme", "canonical_url": f"{server.url}/index.html", "status": "active",
            "strategies": [{"type": "href", "listing_urls": [f"{server.url}/index.html"],
                            "job_url_patterns": ["/jobs/"]}]}]))
        crawl("href", "badlink")
    run = last_run(pool)
    assert run["outcome"] == "finished" and run["stats"]["gigflow/unreadable_links"] == 1
    with pool.connection() as conn:
        titles = {row["title"] for row in conn.execute("SELECT title FROM jobs WHERE source_id = 'badlink'")}
    assert titles == {"Welder 0", "Welder 1"}
