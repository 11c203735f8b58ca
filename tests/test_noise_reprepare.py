"""A filter learned after a crawl reaches pages that never change: their stored versions are prepared again.

A sitemap source whose lastmod stands still is not refetched; saving a new filter prepares each URL's current
version again from its stored bytes, stores the new Markdown on that version and re-extracts its jobs, whose
descriptions (the page's prepared Markdown) lose the template, with events.
"""

import gzip

import pytest

from gigflow.devserver import FixtureServer
from gigflow.noise.learn.lifecycle.review import ReviewKind, run_review
from gigflow.noise.learn.lifecycle.review_learner import make_learner
from gigflow.noise.learn.settings import NoiseSettings
from gigflow.maintenance.reprepare import reprepare_configuration
from gigflow.sources.repository import get_source
from helpers import FIXTURES, PLACEHOLDER_ORIGIN, copy_site, crawl, import_source, last_run

SOURCE = {
    "id": "harbour", "company": "Harbour Freight Co.", "canonical_url": f"{PLACEHOLDER_ORIGIN}/", "status": "active",
    "strategies": [{"type": "sitemap", "job_url_patterns": [r"/jobs/[a-z-]+\.html$"],
                    "exclude_patterns": [r"/index\.html$"]}],
}


@pytest.fixture
def site(tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    with FixtureServer(root) as server:
        copy_site(FIXTURES / "sites" / "sitemap", root, server.url)
        xml = root / "sitemaps" / "jobs.xml"  # the index lists the gzip copy
        (root / "sitemaps" / "jobs.xml.gz").write_bytes(gzip.compress(xml.read_bytes()))
        xml.unlink()
        yield server


def descriptions(pool) -> dict:
    with pool.connection() as conn:
        rows = conn.execute("SELECT title, fields->>'description' AS description FROM jobs").fetchall()
    return {row["title"]: row["description"] for row in rows}


def test_a_saved_filter_reprepares_unchanged_sitemap_pages_without_refetching(pool, site, tmp_path):
    import_source(pool, SOURCE, site.url)
    markdown_dir = str(tmp_path / "markdown")
    crawl("sitemap", "harbour", f"MARKDOWN_DIR={markdown_dir}")
    before = descriptions(pool)
    assert len(before) == 3 and all("All jobs" in d for d in before.values())  # the site nav in every description
    files = sorted((tmp_path / "markdown" / "harbour").glob("*.md"))
    assert len(files) == 3 and all("All jobs" in f.read_text() for f in files)

    configuration_id = get_source(pool, "harbour").configuration_id
    outcome = run_review(pool, configuration_id, ReviewKind.command, make_learner(NoiseSettings(), "rules"),
                         after_save=lambda cid: reprepare_configuration(pool, cid, markdown_dir=markdown_dir))
    assert outcome.status == "saved" and outcome.rules >= 1
    assert outcome.reprepared["reprepared"] == 3 and outcome.reprepared["reextracted"] == 3

    after = descriptions(pool)
    for title, description in after.items():
        assert "All jobs" not in description and title in description  # template gone, the job still there
        assert description.lstrip().startswith(f"# {title}")
    with pool.connection() as conn:
        events = conn.execute("SELECT e.kind, e.fields FROM job_events e ORDER BY e.id").fetchall()
        markdowns = conn.execute("SELECT m.markdown FROM source_versions v JOIN markdowns m "
                                 "ON m.sha256 = v.markdown_sha256").fetchall()
    assert sum(e["kind"] == "reextracted" for e in events) == 3
    assert any(e["kind"] == "updated" and "description" in e["fields"] for e in events)
    assert all("All jobs" not in row["markdown"] for row in markdowns)  # the stored versions carry it too
    # and the Markdown files `scrapy jobs` points to, which the crawl wrote
    assert all("All jobs" not in f.read_text() and f.read_text().lstrip().startswith("# ") for f in files)

    # The next crawl finds every lastmod unchanged: nothing fetched, the new descriptions stay.
    site.requests.clear()
    crawl("sitemap", "harbour")
    assert not [path for _, _, path, _ in site.requests if path.startswith("/jobs/")]
    assert last_run(pool)["stats"]["gigflow/pages_skipped_unchanged"] == 3
    assert descriptions(pool) == after
