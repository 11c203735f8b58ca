"""Crawl efficiency under the shared limiter: 20 politeness keys (127.0.0.1 .. 127.0.0.20, one site each with
a listing and 9 job pages, 10 pages per key) crawled by 4 processes that share one database.

Prints wall time divided by the politeness bound (10 pages x interval): how close the limiter lets a
deployment come to the fastest polite crawl. Run: `make bench-crawl` (or python bench/crawl_bench.py)."""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = 20
PAGES_PER_DOMAIN = 10  # the listing and 9 job pages (robots.txt comes on top, once per key)
PROCESSES = 4


def worker(source_ids: list[str], settings: dict[str, str]) -> None:
    """One process running several crawls in one reactor, as a scrapyd slot would run them one after another."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    project = get_project_settings()
    for name, value in settings.items():
        project.set(name, value, priority="cmdline")
    process = CrawlerProcess(project)
    for source_id in source_ids:
        process.crawl("href", source=source_id)
    process.start()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--interval", type=float, default=0.5)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    settings = {"POLITENESS_MIN_INTERVAL": str(args.interval), "FETCH_ALLOWED_PRIVATE_HOSTS": "127.0.0.0/8",
                "MARKDOWN_DIR": "", "LOG_LEVEL": "WARNING"}
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT))
    if args.worker:
        worker(args.worker.split(","), settings)
        return 0

    import psycopg
    from psycopg.conninfo import make_conninfo

    from gigflow.db import close_pools, get_pool
    from gigflow.db.connection import embedded_server_url
    from tests.scripted_server import ScriptedServer, site, source  # the test suite's loopback server
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources

    admin_url = os.environ.get("GIGFLOW_TEST_DATABASE_URL") or embedded_server_url()
    name = f"gigflow_bench_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo(admin_url, dbname=name)
    os.environ["GIGFLOW_DATABASE_URL"] = url
    servers = [ScriptedServer(site(f"/s{i}", jobs=PAGES_PER_DOMAIN - 1), host=f"127.0.0.{i}") for i in range(1, DOMAINS + 1)]
    try:
        for server in servers:
            server.__enter__()
        ids = [f"bench{i}" for i in range(1, DOMAINS + 1)]
        import_sources(get_pool(url), parse_sources({"sources": [
            source(sid, server.url, f"/s{i}") for i, (sid, server) in enumerate(zip(ids, servers), start=1)]}))
        started = time.time()
        workers = [subprocess.Popen([sys.executable, __file__, "--interval", str(args.interval),
                                     "--worker", ",".join(ids[p::PROCESSES])]) for p in range(PROCESSES)]
        codes = [w.wait() for w in workers]
        wall = time.time() - started
        with get_pool(url).connection() as conn:
            versions = conn.execute("SELECT count(*) AS n FROM source_versions").fetchone()["n"]
    finally:
        for server in servers:
            server.__exit__()
        close_pools()
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    hits = [h for server in servers for h in server.hits]
    span = max(h.end for h in hits) - min(h.start for h in hits)
    per_key = [sorted(server.hits, key=lambda h: h.start) for server in servers]
    gaps = sorted(b.start - a.start for key_hits in per_key for a, b in zip(key_hits, key_hits[1:]))
    closest = gaps[0]
    key_spans = sorted(key_hits[-1].end - key_hits[0].start for key_hits in per_key)
    bound = PAGES_PER_DOMAIN * args.interval
    print(f"{DOMAINS} keys x {PAGES_PER_DOMAIN} pages (+ robots.txt), interval {args.interval}s, {PROCESSES} processes")
    print(f"requests {len(hits)}, job versions stored {versions}, worker exit codes {codes}")
    print(f"closest two starts on one key: {closest:.3f}s (interval {args.interval}s)")
    print(f"gap between starts on one key: median {gaps[len(gaps) // 2]:.3f}s, 90th pct {gaps[int(len(gaps) * .9)]:.3f}s")
    print(f"one key's span (first request to last response): median {key_spans[len(key_spans) // 2]:.2f}s, "
          f"max {key_spans[-1]:.2f}s")
    print(f"politeness bound {bound:.1f}s; first request to last response {span:.2f}s; wall incl. start-up {wall:.2f}s "
          f"(spawn to first request {min(h.start for h in hits) - started:.2f}s)")
    print(f"wall / bound = {wall / bound:.2f}   (crawl span / bound = {span / bound:.2f}; target < 1.3)")
    return 0 if not any(codes) else 1


if __name__ == "__main__":
    sys.exit(main())
