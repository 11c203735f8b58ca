"""robots.txt: disallowed paths are never fetched; the file is cached in PostgreSQL and shared by later runs;
Crawl-delay raises the key's interval."""

from scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import crawl

ROBOTS = "User-agent: *\nDisallow: /rb/jobs/1.html\nCrawl-delay: 0.8\n"


def test_disallowed_path_is_never_fetched_and_crawl_delay_spaces_requests(pool):
    with ScriptedServer(site("/rb", jobs=3, robots=ROBOTS)) as server:
        import_sources(pool, parse_sources({"sources": [source("rb", server.url, "/rb")]}))
        crawl("href", "rb")  # POLITENESS_MIN_INTERVAL=0: only the Crawl-delay spaces requests
        crawl("href", "rb")
    paths = [h.path for h in server.hits]
    assert "/rb/jobs/1.html" not in paths
    assert paths.count("/rb/jobs/0.html") == 2 and paths.count("/rb/jobs/2.html") == 2
    assert paths.count("/robots.txt") == 1  # the second run read the shared cache
    hits = sorted(server.hits, key=lambda h: h.start)
    after_robots = hits[1:]
    assert all(b.start - a.start >= 0.8 for a, b in zip(after_robots, after_robots[1:]))
    with pool.connection() as conn:
        row = conn.execute("SELECT origin, politeness_key, http_status, crawl_delay FROM robots_cache").fetchone()
    assert row == {"origin": server.url, "politeness_key": "127.0.0.1", "http_status": 200, "crawl_delay": 0.8}


def test_missing_robots_allows_everything(pool):
    pages = site("/nr", jobs=2)

    def route(path, headers):
        if path == "/robots.txt":
            return pages("/nothing-here", headers)  # 404
        return pages(path, headers)

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources({"sources": [source("nr", server.url, "/nr")]}))
        crawl("href", "nr")
    assert {"/nr/jobs/0.html", "/nr/jobs/1.html"} <= {h.path for h in server.hits}
    with pool.connection() as conn:
        assert conn.execute("SELECT http_status FROM robots_cache").fetchone()["http_status"] == 404
