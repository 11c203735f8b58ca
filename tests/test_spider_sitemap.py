"""The sitemap spider end to end: robots.txt Sitemap line, an index, a gzip sitemap, lastmod, gone jobs."""

import gzip
from datetime import datetime, timedelta, timezone

import pytest

from gigflow.devserver import FixtureServer
from helpers import FIXTURES, PLACEHOLDER_ORIGIN, copy_site, crawl, import_source, last_run

SOURCE = {
    "id": "harbour", "company": "Harbour Freight Co.", "canonical_url": f"{PLACEHOLDER_ORIGIN}/", "status": "active",
    "strategies": [{"type": "sitemap", "job_url_patterns": [r"/jobs/[a-z-]+\.html$"],
                    "exclude_patterns": [r"/index\.html$"]}],
}


def write_gzip_sitemap(site):
    xml = site / "sitemaps" / "jobs.xml"
    (site / "sitemaps" / "jobs.xml.gz").write_bytes(gzip.compress(xml.read_bytes()))
    xml.unlink()  # only the gzip is served


@pytest.fixture
def site(tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    with FixtureServer(root) as server:
        copy_site(FIXTURES / "sites" / "sitemap", root, server.url)
        write_gzip_sitemap(root)
        server.root = root
        yield server


def job_pages_fetched(server):
    return sorted(path for _, _, path, _ in server.requests if path.startswith("/jobs/"))


def test_sitemap_index_gzip_lastmod_and_gone(pool, site):
    import_source(pool, SOURCE, site.url)
    crawl("sitemap", "harbour")
    with pool.connection() as conn:
        jobs = conn.execute("SELECT title, url, fields, gone_at FROM jobs ORDER BY title").fetchall()
        versions = conn.execute("SELECT count(*) AS n FROM source_versions").fetchone()["n"]
    assert [j["title"] for j in jobs] == ["Field Technician", "Payroll Specialist", "Warehouse Lead"]
    assert versions == 3 and all(j["gone_at"] is None for j in jobs)
    assert jobs[0]["fields"]["location"] == "Eindhoven, NL"
    # robots.txt led to the index, the index to both sitemaps; the excluded listing and the foreign URL stay unfetched
    paths = [path for _, _, path, _ in site.requests]
    assert {"/sitemap_index.xml", "/sitemaps/jobs.xml.gz", "/sitemaps/pages.xml"} <= set(paths)
    assert job_pages_fetched(site) == ["/jobs/field-technician.html", "/jobs/payroll-specialist.html",
                                       "/jobs/warehouse-lead.html"]
    assert "/private/apply" not in " ".join(paths)
    assert paths.count("/robots.txt") == 1  # the spider reads the robots middleware's shared copy
    run = last_run(pool)
    assert run["outcome"] == "finished" and run["stats"]["gigflow/sitemaps"] == 3
    assert run["stats"]["gigflow/sitemap_foreign_urls"] == 1
    assert run["stats"]["downloader/response_status_count/200"] >= 7

    # Second run: every lastmod is older than the stored version, so no job page is fetched and none is gone.
    site.requests.clear()
    crawl("sitemap", "harbour")
    run = last_run(pool)
    assert job_pages_fetched(site) == []
    assert run["stats"]["gigflow/pages_skipped_unchanged"] == 3 and run["stats"]["gigflow/jobs_unchanged"] == 3
    assert run["stats"]["gigflow/jobs_gone"] == 0

    # Third run: one job left the sitemap, another changed after its stored version.
    xml = gzip.decompress((site.root / "sitemaps" / "jobs.xml.gz").read_bytes()).decode()
    tomorrow = (datetime.now(timezone.utc) + timedelta(days=1)).date().isoformat()
    xml = "\n".join(line for line in xml.splitlines() if "field-technician" not in line)
    xml = xml.replace("payroll-specialist.html</loc><lastmod>2024-04-30", f"payroll-specialist.html</loc><lastmod>{tomorrow}")
    (site.root / "sitemaps" / "jobs.xml.gz").write_bytes(gzip.compress(xml.encode()))
    site.requests.clear()
    crawl("sitemap", "harbour")
    assert job_pages_fetched(site) == ["/jobs/payroll-specialist.html"]
    with pool.connection() as conn:
        jobs = {j["title"]: j for j in conn.execute("SELECT title, gone_at FROM jobs")}
    assert len(jobs) == 3  # marked, never deleted
    assert jobs["Field Technician"]["gone_at"] is not None
    assert jobs["Payroll Specialist"]["gone_at"] is None and jobs["Warehouse Lead"]["gone_at"] is None
    run = last_run(pool)
    assert run["stats"]["gigflow/jobs_gone"] == 1 and run["stats"]["gigflow/versions_unchanged"] == 1


def test_source_without_any_sitemap_is_an_incomplete_run(pool, site):
    source = {**SOURCE, "strategies": [{"type": "sitemap", "use_robots": False}]}
    import_source(pool, source, site.url)
    crawl("sitemap", "harbour")
    assert last_run(pool)["outcome"] == "incomplete:empty_listing"
