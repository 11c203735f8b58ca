"""The shared limiter across processes: 4 concurrent `scrapy crawl` processes for 4 sources on 4 hosts of one
registrable domain (resolved to 127.0.0.1 through FETCH_RESOLVER_OVERRIDES), so one politeness key."""

import json
import subprocess
import sys

from scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import ROOT

INTERVAL = 0.5  # short: every timing assertion below is relative to it
HOSTS = ["jobs.northwind.co.uk", "careers.northwind.co.uk", "www.northwind.co.uk", "northwind.co.uk"]
# Overlap check only: the server stamps the end after writing, the next start after reading a request.
CLOCK_SLACK = 0.01


def crawl_processes(source_ids, *settings):
    overrides = json.dumps({host: "127.0.0.1" for host in HOSTS})
    args = ["-s", f"POLITENESS_MIN_INTERVAL={INTERVAL}", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1",
            "-s", f"FETCH_RESOLVER_OVERRIDES={overrides}",
            "-s", "MARKDOWN_DIR=", "-s", "LOG_LEVEL=INFO"]
    for setting in settings:
        args += ["-s", setting]
    return [subprocess.Popen([sys.executable, "-m", "scrapy", "crawl", "href", "-a", f"source={sid}", *args],
                             cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for sid in source_ids]


def test_four_processes_on_one_domain_never_overlap_and_keep_the_interval(pool):
    prefixes = ["/a", "/b", "/c", "/d"]
    routes = {p: site(p, jobs=2, job_delay=INTERVAL + 0.3 if p == "/a" else 0.0) for p in prefixes}

    def route(path, headers):
        prefix = "/" + path.split("/")[1]
        return routes.get(prefix, routes["/a"])(path, headers)

    with ScriptedServer(route) as server:
        port = server.httpd.server_address[1]
        import_sources(pool, parse_sources({"sources": [
            source(p[1:], f"http://{host}:{port}", p) for p, host in zip(prefixes, HOSTS)]}))
        processes = crawl_processes([p[1:] for p in prefixes])
        outputs = [p.communicate(timeout=180) for p in processes]
    for process, (_, stderr) in zip(processes, outputs):
        assert process.returncode == 0, stderr[-3000:]
    hits = sorted(server.hits, key=lambda h: h.start)
    paths = [h.path for h in hits]
    assert {h.host.split(":")[0] for h in hits} == set(HOSTS)
    assert paths.count("/robots.txt") == 4  # one per origin, each spending the shared budget
    for prefix in prefixes:
        assert paths.count(f"{prefix}/") == 1
        assert {f"{prefix}/jobs/0.html", f"{prefix}/jobs/1.html"} <= set(paths)
    for previous, current in zip(hits, hits[1:]):
        # never two at once (the slow pages take longer than the interval), and starts an interval apart
        assert current.start >= previous.end - CLOCK_SLACK, (previous, current)
        assert current.start - previous.start >= INTERVAL, (previous, current)
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM source_versions").fetchone()["n"] == 8
        assert conn.execute("SELECT count(*) AS n FROM politeness_leases").fetchone()["n"] == 0
        keys = [r["key"] for r in conn.execute("SELECT key FROM politeness_keys")]
    assert keys == ["northwind.co.uk"]
