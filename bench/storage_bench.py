"""Storage growth (`make bench-storage`): SOURCES sources x JOBS job pages crawled once a day for DAYS days, CHANGE
of the pages changing per day, every page carrying a fresh per-request token and nonce, stored straight through the
store functions (no HTTP), in a throwaway database:

before: the old storage (one source_versions row with its own pglz body per distinct sha256: every token a version)
after:  gigflow.store.versions.store_fetch (bodies and Markdown once per sha256, versions only on change)

Pages are real corpus pages (../shared/corpus/html, 5-120 KB) with the job's own heading added; their Markdown is
the template's prepared Markdown plus that heading (prepared once per template: preparation is not measured).
Bytes are pg_total_relation_size (heap, TOAST, indexes) of the tables each layout writes. Growth per day is the
mean over days 2..DAYS; the 1,000-source figure scales it linearly (sources are independent). A second part
compares compression of the day-1 bodies: pglz and lz4 TOAST columns, and zstd level 3 when `zstandard` is
importable (not a dependency).

Run: `make bench-storage` (BENCH_ARGS="--sources 10 --days 30"; sizes are options)."""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scale_bench import drop_database, throwaway_database  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "html"

LEGACY_TABLE = """
CREATE TABLE legacy_versions (
    id bigserial PRIMARY KEY, source_id text NOT NULL, url text NOT NULL,
    fetched_at timestamptz NOT NULL DEFAULT now(), http_status integer NOT NULL, content_type text, etag text,
    last_modified text, sha256 text NOT NULL, size integer NOT NULL, body bytea NOT NULL, markdown text,
    preparation jsonb, UNIQUE (source_id, url, sha256));
CREATE INDEX legacy_versions_latest ON legacy_versions (source_id, url, fetched_at DESC)"""
# The insert gigflow ran before bodies were shared and versions meant change (store/versions.sql's insert_version then).
LEGACY_INSERT = """
INSERT INTO legacy_versions (source_id, url, http_status, content_type, etag, last_modified, sha256, size, body,
                             markdown, preparation)
VALUES (%(source_id)s, %(url)s, %(http_status)s, %(content_type)s, %(etag)s, %(last_modified)s, %(sha256)s,
        %(size)s, %(body)s, %(markdown)s, %(preparation)s)
ON CONFLICT (source_id, url, sha256) DO UPDATE
    SET markdown = EXCLUDED.markdown, preparation = EXCLUDED.preparation
    WHERE EXCLUDED.markdown IS NOT NULL AND legacy_versions.markdown IS DISTINCT FROM EXCLUDED.markdown"""


def templates() -> list[tuple[bytes, str]]:
    from gigflow.documents import prepare_html

    found = []
    for path in sorted(CORPUS.glob("*/*.html")):
        body = path.read_bytes()
        if 5_000 <= len(body) <= 120_000:
            found.append((body, prepare_html(body, url=f"https://{path.parent.name}.example/").markdown))
    if not found:
        sys.exit(f"no corpus pages of 5-120 KB under {CORPUS}")
    return found


def page(template: tuple[bytes, str], source: int, job: int, revision: int, token: int) -> tuple[bytes, str, list]:
    body, markdown = template
    heading = f"Job {source}-{job} revision {revision}"
    volatile = (f'<input type="hidden" name="csrf" value="{token:016x}">'
                f'<script nonce="{token:012x}">window.requestId="{token:016x}"</script>')
    html = body.replace(b"</body>", f"<h1>{heading}</h1>{volatile}</body>".encode(), 1)
    if html == body:
        html = body + f"<h1>{heading}</h1>{volatile}".encode()
    return html, f"{markdown}\n\n# {heading}\n", [{"title": heading}]


def fetch_params(source: int, job: int, html: bytes, markdown: str, jobs: list) -> dict:
    from psycopg.types.json import Jsonb

    from gigflow.store.versions import jobs_digest

    return {"source_id": f"s{source:04d}", "url": f"https://s{source:04d}.example/jobs/{job}", "http_status": 200,
            "content_type": "text/html", "etag": None, "last_modified": None,
            "sha256": hashlib.sha256(html).hexdigest(), "size": len(html), "body": html, "markdown": markdown,
            "preparation": Jsonb({"noise_filter": None}), "jobs_digest": jobs_digest(jobs)}


def table_bytes(conn, tables: list[str]) -> int:
    return sum(conn.execute("SELECT pg_total_relation_size(%s) AS n", (t,)).fetchone()["n"] for t in tables)


def simulate(pool, args, pages: list, layout: str) -> dict:
    from gigflow.store import versions

    tables = ["legacy_versions"] if layout == "before" else ["source_versions", "bodies", "markdowns"]
    rng = random.Random(7)
    revisions = {}
    sizes, elapsed, token = [], 0.0, 0
    for day in range(args.days):
        for source in range(args.sources):
            started = time.perf_counter()
            with pool.connection() as conn, conn.transaction():
                for job in range(args.jobs):
                    if day and rng.random() < args.change:
                        revisions[source, job] = revisions.get((source, job), 0) + 1
                    token += 1
                    html, markdown, jobs = page(pages[(source * args.jobs + job) % len(pages)], source, job,
                                                revisions.get((source, job), 0), token)
                    params = fetch_params(source, job, html, markdown, jobs)
                    if layout == "before":
                        conn.execute(LEGACY_INSERT, params)
                    else:
                        versions.store_fetch(conn, params)
            elapsed += time.perf_counter() - started
        with pool.connection() as conn:
            sizes.append(table_bytes(conn, tables))
    with pool.connection() as conn:
        count = conn.execute(f"SELECT count(*) AS n FROM {tables[0]}").fetchone()["n"]
    growth = (sizes[-1] - sizes[0]) / max(1, args.days - 1)
    return {"day1": sizes[0], "growth": growth, "total": sizes[-1], "rows": count, "seconds": elapsed}


def compression(pool, pages: list, args) -> list[tuple[str, int, float]]:
    bodies = [page(pages[(s * args.jobs + j) % len(pages)], s, j, 0, 1)[0]
              for s in range(args.sources) for j in range(args.jobs)]
    results = [("none", sum(len(b) for b in bodies), 0.0)]
    with pool.connection() as conn:
        for method in ("pglz", "lz4"):
            try:
                with conn.transaction():
                    conn.execute(f"CREATE TEMP TABLE c_{method} (body bytea COMPRESSION {method})")
            except Exception as exc:  # a server built without lz4
                print(f"  {method}: not supported by this server ({str(exc).splitlines()[0]})")
                continue
            started = time.perf_counter()
            with conn.transaction():
                for body in bodies:
                    conn.execute(f"INSERT INTO c_{method} VALUES (%s)", (body,))
            seconds = time.perf_counter() - started
            size = conn.execute(f"SELECT sum(pg_column_size(body)) AS n FROM c_{method}").fetchone()["n"]
            results.append((f"{method} (TOAST)", int(size), seconds))
    try:
        import zstandard
    except ImportError:
        print("  zstd: skipped (zstandard not installed)")
    else:
        compressor = zstandard.ZstdCompressor(level=3)
        started = time.perf_counter()
        size = sum(len(compressor.compress(b)) for b in bodies)
        results.append(("zstd-3 (client)", size, time.perf_counter() - started))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=100)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--change", type=float, default=0.02, help="share of pages changing per day")
    args = parser.parse_args()
    if args.sources < 1 or args.jobs < 1 or args.days < 2 or not 0 <= args.change <= 1:
        parser.error("--sources and --jobs must be >= 1, --days >= 2, --change in [0, 1]")

    from gigflow.db import get_pool
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources

    pages = templates()
    admin, name, url = throwaway_database("storage")
    try:
        os.environ["GIGFLOW_DATABASE_URL"] = url
        pool = get_pool(url)
        import_sources(pool, parse_sources({"sources": [
            {"id": f"s{s:04d}", "company": f"Company {s}", "canonical_url": f"https://s{s:04d}.example/jobs/",
             "status": "active", "strategies": [{"type": "href", "listing_urls": [f"https://s{s:04d}.example/jobs/"]}]}
            for s in range(args.sources)]}))
        with pool.connection() as conn:
            conn.execute(LEGACY_TABLE)
            compression_of = conn.execute("SELECT attcompression FROM pg_attribute WHERE attrelid = 'bodies'::regclass"
                                          " AND attname = 'body'").fetchone()["attcompression"]
            server = conn.execute("SHOW server_version").fetchone()["server_version"]
        mean = sum(len(p[0]) for p in pages) / len(pages)
        print(f"{args.sources} sources x {args.jobs} job pages x {args.days} days, {args.change:.0%} changing per day, "
              f"a fresh token on every page; {len(pages)} corpus templates, mean {mean / 1024:.0f} KB; "
              f"PostgreSQL {server}, bodies column compression: {'lz4' if compression_of == 'l' else 'pglz'}")
        results = {layout: simulate(pool, args, pages, layout) for layout in ("before", "after")}
        scale = 1000 / args.sources
        print(f"\n{'layout':<8} {'rows':>8} {'day 1':>10} {'per day':>12} {'per day @1,000 src':>20} "
              f"{'fetches/s':>10}")
        for layout, r in results.items():
            fetches = args.sources * args.jobs * args.days
            print(f"{layout:<8} {r['rows']:>8} {r['day1'] / 2**20:>8.1f}MB {r['growth'] / 2**20:>10.2f}MB "
                  f"{r['growth'] * scale / 2**30:>18.3f}GB {fetches / r['seconds']:>10.0f}")
        before, after = results["before"], results["after"]
        print(f"\ngrowth per day after/before: {after['growth'] / before['growth']:.4f} "
              f"(before/after {before['growth'] / max(1, after['growth']):.0f}x); "
              f"day-1 size after/before: {after['day1'] / before['day1']:.2f}; "
              f"store time after/before: {after['seconds'] / before['seconds']:.2f}")
        print("\ncompression of the day-1 bodies:")
        rows = compression(pool, pages, args)
        raw = rows[0][1]
        for method, size, seconds in rows:
            print(f"  {method:<16} {size / 2**20:>8.1f} MB  ratio {size / raw:.3f}  {seconds:.2f} s")
    finally:
        drop_database(admin, name)


if __name__ == "__main__":
    main()
