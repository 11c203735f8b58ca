"""The feed spider end to end: a real RSS feed, and an Atom feed whose entries are followed to job pages."""

from lxml import etree

from helpers import FIXTURES, PLACEHOLDER_ORIGIN, crawl, import_source, last_run


def feed_source(source_id, feed, **strategy):
    return {"id": source_id, "company": "Feed Co", "status": "active", "canonical_url": f"{PLACEHOLDER_ORIGIN}/feed/",
            "strategies": [{"type": "feed", "feed_urls": [f"{PLACEHOLDER_ORIGIN}/feed/{feed}"], **strategy}]}


def stored(pool):
    with pool.connection() as conn:
        jobs = conn.execute("SELECT title, url, external_id, parser_key, fields FROM jobs ORDER BY title").fetchall()
        run = last_run(pool)
    return jobs, run


def test_rss_entries_become_jobs(pool, fixture_server):
    import_source(pool, feed_source("axelera", "axelera.xml"), fixture_server.url)
    crawl("feed", "axelera")
    jobs, run = stored(pool)
    items = etree.parse(str(FIXTURES / "sites" / "feed" / "axelera.xml")).findall(".//item")
    assert sorted(j["external_id"] for j in jobs) == sorted(i.findtext("guid") for i in items)
    assert {j["title"] for j in jobs} == {i.findtext("title") for i in items}
    assert all(j["parser_key"] == "feed" for j in jobs)
    assert run["outcome"] == "finished" and run["stats"]["gigflow/versions_new"] == 1


def test_followed_entries_are_one_job_each(pool, fixture_server):
    import_source(pool, feed_source("polder", "atom.xml", follow_links=True), fixture_server.url)
    crawl("feed", "polder")
    jobs, run = stored(pool)
    by_title = {j["title"]: j for j in jobs}
    assert sorted(by_title) == ["Lab Analyst", "Logistics Planner", "Process Operator"]
    base = f"{fixture_server.url}/feed/jobs"
    # Followed and readable: the job page's JSON-LD stands for the entry.
    assert by_title["Process Operator"]["parser_key"] == "jsonld"
    assert by_title["Process Operator"]["url"] == f"{base}/process-operator.html"
    # Followed, but a script shell: the entry itself is kept. Off-site link: never fetched, stored from the feed.
    assert by_title["Lab Analyst"]["parser_key"] == "feed"
    assert by_title["Logistics Planner"]["parser_key"] == "feed"
    paths = [path for _, _, path, _ in fixture_server.requests]
    assert "/feed/jobs/process-operator.html" in paths and "/feed/jobs/lab-analyst.html" in paths
    assert run["stats"]["gigflow/feed_links_followed"] == 2 and run["stats"]["gigflow/feed_entries_kept"] == 1
    assert run["outcome"] == "finished"
