"""The click spider in real headless Chromium: items that reveal details by JavaScript, load-more, recycling."""

import os
import secrets
import threading
import time
from pathlib import Path

from helpers import PLACEHOLDER_ORIGIN, crawl, import_source

SOURCE = {
    "id": "lumen", "company": "Lumen Labs", "canonical_url": f"{PLACEHOLDER_ORIGIN}/click/index.html",
    "status": "active",
    "strategies": [{"type": "click", "listing_url": f"{PLACEHOLDER_ORIGIN}/click/index.html",
                    "item_selector": "li.job", "detail_selector": "#detail", "load_more_selector": "button.load-more"}],
}


class ChromiumWatch:
    """Watches, while a crawl runs, for the Chromium processes it starts: the browser inherits ``marker`` in its
    environment; its zygotes, renderers and helpers start with a cleaned one but name the browser's profile folder."""

    def __init__(self, marker: str):
        self.marker, self.profiles = marker.encode(), set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self):
        while not self.stop.is_set():
            self.processes()
            time.sleep(0.2)

    def processes(self) -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                cmdline = (entry / "cmdline").read_bytes()
                if b"chrom" not in cmdline:
                    continue
                if self.marker in (entry / "environ").read_bytes():
                    self.profiles.update(arg.split(b"=", 1)[1] for arg in cmdline.split(b"\0")
                                         if arg.startswith(b"--user-data-dir="))
                    found.append(int(entry.name))
                elif any(profile in cmdline for profile in self.profiles):
                    found.append(int(entry.name))
            except OSError:
                continue
        return found

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def test_click_crawl_captures_details_in_headless_chromium(pool, fixture_server):
    import_source(pool, SOURCE, fixture_server.url)
    token = secrets.token_hex(6)
    os.environ["GIGFLOW_CLICK_TEST"] = token
    try:
        with ChromiumWatch(f"GIGFLOW_CLICK_TEST={token}") as watch:
            # Three items per context: the second context re-opens the listing and clicks "load more" for the rest.
            result = crawl("click", "lumen", "CLICK_ITEMS_PER_CONTEXT=3", timeout=180)
    finally:
        del os.environ["GIGFLOW_CLICK_TEST"]
    assert watch.profiles, "the browser was never seen running"
    assert watch.processes() == [], "a Chromium process outlived the crawl"

    with pool.connection() as conn:
        jobs = {j["title"]: j for j in conn.execute("SELECT title, url, external_id, fields FROM jobs")}
        versions = {v["url"]: v for v in conn.execute("SELECT v.url, b.body, m.markdown FROM source_versions v "
                                                          "JOIN bodies b ON b.sha256 = v.sha256 "
                                                          "LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256")}
        run = conn.execute("SELECT stats, outcome FROM crawl_runs").fetchone()
    assert sorted(jobs) == ["Firmware Developer", "Office Manager", "Optical Engineer", "Sales Engineer",
                            "Test Technician"], result.stderr[-3000:]
    base = f"{fixture_server.url}/click"
    assert jobs["Optical Engineer"]["url"] == f"{base}/jobs/optical-engineer"
    # The office manager's detail keeps the listing's URL: its version URL and job identity carry the item key.
    kept = f"{base}/index.html#item=data-job-id=102"
    assert kept in versions and jobs["Office Manager"]["external_id"] == "click:data-job-id=102"
    assert "visitor desk" in versions[kept]["markdown"] and "Loading" not in versions[kept]["markdown"]
    assert jobs["Sales Engineer"]["fields"]["location"] == "Amsterdam, NL"
    assert len(versions) == 5
    stats = run["stats"]
    assert run["outcome"] == "finished", result.stderr[-3000:]
    assert stats["gigflow/listing_pages"] == 2 and stats["gigflow/click_captures"] == 5
    assert stats["gigflow/click_reveals"] >= 1
    # Images and fonts are never downloaded; details came over XHR from the page itself.
    paths = [path for _, _, path, _ in fixture_server.requests]
    assert "/click/details/105.json" in paths
    assert not any(p.endswith(("logo.png", "lumen.woff2")) for p in paths)


def test_click_cap_makes_the_run_incomplete(pool, fixture_server):
    import_source(pool, {**SOURCE, "strategies": [{**SOURCE["strategies"][0], "max_items": 2}]}, fixture_server.url)
    crawl("click", "lumen", timeout=180)
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM jobs").fetchone()["n"] == 2
        assert conn.execute("SELECT outcome FROM crawl_runs").fetchone()["outcome"] == "incomplete:cap_reached"
