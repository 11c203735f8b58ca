"""Read API latency at scale (`make bench-api`): JOBS published canonical jobs (default 100,000) with a sighting
each and their events, in a throwaway database; `scrapy serve-api` in its own process on 127.0.0.1; one client
on a keep-alive connection. Prints p50/p99 per request kind (first page, a page 100 pages deep by cursor, a
filtered page, a search, one job, one change-feed page walked by cursor), the read model's build time, and the
rows each request's query reads (EXPLAIN ANALYZE: rows the scan nodes returned plus those their filters
removed, and shared buffers touched).

Options: --jobs N, --requests N (per kind). Uses GIGFLOW_TEST_DATABASE_URL's server, else the embedded one."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

TITLES = ["Senior Software Engineer", "Data Scientist", "Product Manager", "Sales Representative", "Nurse",
          "Warehouse Operative", "Account Executive", "Customer Support Specialist", "DevOps Engineer",
          "Financial Analyst", "Softwareentwickler", "Krankenpfleger", "Comptable", "Ingénieur logiciel",
          "Data Engineer", "Marketing Manager", "Electrician", "Truck Driver", "Teacher", "Welder"]
WORDS = {"english": "you will build and run the systems our customers rely on with a friendly team in a growing "
                    "company and we offer flexible hours training and a good salary",
         "german": "wir suchen für unser team eine engagierte person die mit uns wachsen will und bieten flexible "
                   "arbeitszeiten weiterbildung und ein gutes gehalt",
         "french": "nous recherchons pour notre équipe une personne motivée qui veut grandir avec nous et nous "
                   "offrons des horaires flexibles une formation et un bon salaire"}

SEED_SQL = """
INSERT INTO companies (id, name) VALUES (1, 'bench');
INSERT INTO configurations (id, company_id, canonical_url, strategies, config_hash)
SELECT s, 1, 'https://s' || s || '.example/', '[]', '' FROM generate_series(1, 50) s;
INSERT INTO sources (id, configuration_id, company_id, url)
SELECT 'source-' || s, s, 1, 'https://s' || s || '.example/' FROM generate_series(1, 50) s;
INSERT INTO jobs (canonical_key, source_id, title, url, fields, confidence, parser_key, parser_version)
SELECT 'url:' || n, 'source-' || (1 + mod(n, 50)), (%(titles)s::text[])[1 + mod(n, 20)] || ' ' || n,
       'https://s' || (1 + mod(n, 50)) || '.example/jobs/' || n,
       jsonb_build_object('employer', 'Employer ' || mod(n, 1000), 'location', 'City ' || mod(n, 200),
                          'remote', (ARRAY['remote', 'hybrid', 'onsite'])[1 + mod(n, 3)],
                          'employment_type', (ARRAY['FULL_TIME', 'PART_TIME', 'CONTRACT'])[1 + mod(n, 3)],
                          'date_posted', (date '2026-01-01' + mod(n, 330))::text,
                          'description', repeat((%(words)s::text[])[(ARRAY[1, 1, 1, 1, 1, 1, 1, 2, 2, 3])[1 + mod(n, 10)]] || ' ', 4)),
       0.9, 'bench', '1'
FROM generate_series(1, %(jobs)s) n;
INSERT INTO canonical_jobs (id, employer_key, published_at, quality_score)
SELECT n, 'employer ' || mod(n, 1000), now(), 80 FROM generate_series(1, %(jobs)s) n;
SELECT setval('canonical_jobs_id_seq', %(jobs)s);
INSERT INTO canonical_links (job_id, canonical_id, score) SELECT n, n, 1 FROM generate_series(1, %(jobs)s) n;
INSERT INTO job_events (job_id, kind) SELECT n, 'seen' FROM generate_series(1, %(jobs)s) n;
INSERT INTO canonical_events (canonical_id, kind) SELECT n, 'created' FROM generate_series(1, %(jobs)s) n;
INSERT INTO canonical_events (canonical_id, kind) SELECT n, 'published' FROM generate_series(1, %(jobs)s) n;
INSERT INTO job_events (job_id, kind, fields) SELECT 1 + mod(n * 7919, %(jobs)s), 'updated', '{salary}'
FROM generate_series(1, %(jobs)s) n;
ANALYZE;
"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def rows_read(conn, sql: str, params: dict) -> tuple[int, int]:
    """(rows the scan nodes returned or filtered out, shared buffers hit or read) of one execution."""
    plan = conn.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, params, prepare=False).fetchone()
    plan = list(plan.values())[0][0]["Plan"]
    rows = 0

    def walk(node):
        nonlocal rows
        if "Scan" in node["Node Type"]:
            loops = node.get("Actual Loops", 1)
            rows += (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
                     + node.get("Rows Removed by Index Recheck", 0)) * loops
        for child in node.get("Plans", []):
            walk(child)

    walk(plan)
    return rows, plan.get("Shared Hit Blocks", 0) + plan.get("Shared Read Blocks", 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    from scale_bench import drop_database, throwaway_database

    from gigflow.db import get_pool
    from gigflow.delivery import tokens
    from gigflow.delivery.language import QUERY_CONFIGS
    from gigflow.delivery.indexer import catch_up
    from gigflow.sql import load_queries

    admin, name, url = throwaway_database("api")
    server = None
    try:
        pool = get_pool(url)
        started = time.perf_counter()
        with pool.connection() as conn:
            for statement in [s for s in SEED_SQL.split(";\n") if s.strip()]:
                conn.execute(statement, {"titles": TITLES, "words": list(WORDS.values()), "jobs": args.jobs},
                             prepare=False)
        seed_s = time.perf_counter() - started
        started = time.perf_counter()
        counts = catch_up(pool, batch=2000)
        index_s = time.perf_counter() - started
        started = time.perf_counter()
        with pool.connection() as conn:
            conn.execute("ANALYZE delivery_jobs")
        token = tokens.add(pool, "bench", ["jobs:read", "changes:read"])
        print(f"{args.jobs} jobs seeded in {seed_s:.1f} s; read model built in {index_s:.1f} s "
              f"({args.jobs / index_s:.0f} jobs/s; {counts})")

        port = free_port()
        env = {**os.environ, "GIGFLOW_DATABASE_URL": url}
        server = subprocess.Popen([sys.executable, "-m", "scrapy", "serve-api", "--port", str(port), "-s",
                                   "API_INDEX_INTERVAL=0"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        connection = None
        deadline = time.monotonic() + 60
        while connection is None:
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=1)
                connection.close()
            except OSError:
                connection = None
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit(f"serve-api did not start: {server.stderr.read() if server.poll() else ''}")
                time.sleep(0.2)
        client = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        def get(path: str) -> dict:
            client.request("GET", path, headers={"Authorization": f"Bearer {token}"})
            response = client.getresponse()
            body = response.read()
            assert response.status == 200, (path, response.status, body[:300])
            return json.loads(body)

        # Cursors for the deep page and the feed: walk there once (not timed).
        deep, path = None, "/api/v1/jobs?limit=50"
        for _ in range(min(100, args.jobs // 50 - 1)):
            deep = get(path)["next"]
            path = f"/api/v1/jobs?limit=50&cursor={deep}"
        kinds = {
            "list, first page (50)": lambda i: "/api/v1/jobs?limit=50",
            "list, page 101 by cursor": lambda i: f"/api/v1/jobs?limit=50&cursor={deep}",
            "list, employer filter": lambda i: f"/api/v1/jobs?limit=50&employer=Employer%20{i % 1000}",
            "list, location + remote": lambda i: f"/api/v1/jobs?limit=50&location=City%20{i % 200}&remote=hybrid",
            "search q (one word)": lambda i: "/api/v1/jobs?limit=20&q=" + ["welder", "softwareentwickler",
                                                                          "comptable", "nurse"][i % 4],
            "search q + filter": lambda i: f"/api/v1/jobs?limit=20&q=engineer&location=City%20{i % 200}",
            "item": lambda i: f"/api/v1/jobs/{1 + (i * 7919) % args.jobs}",
            "changes, 100 per page": None,
        }
        print(f"\n{'request':28} {'p50 ms':>8} {'p99 ms':>8}")
        timings = {}
        for kind, make in kinds.items():
            samples, feed = [], None
            for i in range(args.requests):
                path = make(i) if make else "/api/v1/changes?limit=100" + (f"&after={feed}" if feed else "")
                t0 = time.perf_counter()
                body = get(path)
                samples.append(1000 * (time.perf_counter() - t0))
                if not make:
                    feed = body["next"]
            timings[kind] = samples
            print(f"{kind:28} {percentile(samples, 50):8.1f} {percentile(samples, 99):8.1f}")

        none = {"source": None, "employer": None, "location": None, "remote": None, "employment_type": None,
                "posted_since": None, "before": None, "rank": None, "q": None, "limit": 51, "normalization": 1,
                "configs": list(QUERY_CONFIGS)}
        explained = {
            "list, first page": ("list_jobs", none),
            "list, page 101": ("list_jobs", {**none, "before": args.jobs - 5000}),
            "list, employer filter": ("list_jobs", {**none, "employer": "Employer 7"}),
            "list, location + remote": ("list_jobs", {**none, "location": "City 7", "remote": "hybrid"}),
            "search q (one word)": ("search_jobs", {**none, "q": "welder", "limit": 21}),
            "search q + filter": ("search_jobs", {**none, "q": "engineer", "location": "City 7",
                                                          "limit": 21}),
            "item": ("job", {"id": args.jobs // 2, "markdown": False}),
            "changes, 100 per page": ("changes", {"xid": "0", "src": 0, "id": 0, "limit": 100}),
        }
        print(f"\n{'query (EXPLAIN ANALYZE)':28} {'rows read':>10} {'buffers':>8}")
        with pool.connection() as conn:
            for kind, (sql_name, params) in explained.items():
                rows, buffers = rows_read(conn, load_queries("gigflow.store", "delivery.sql")[sql_name], params)
                print(f"{kind:28} {rows:10d} {buffers:8d}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        drop_database(admin, name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
