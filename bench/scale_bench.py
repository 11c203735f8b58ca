"""Scale, small and bounded (`make bench-scale`): two parts, each in its own throwaway database.

listing: SOURCES sources with RUNS crawl runs each and JOBS jobs in all; the time of `sources list`'s query
  (first page and a middle page) and `jobs`' first and a later page, beside the query `sources list` ran before
  (a subquery per source over every source), all in one run, and the peak memory of the two commands.
crawl: two scrapyd processes on 127.0.0.1 x 2 slots, CRAWL_SOURCES sources over HOSTS loopback hosts (a local
  site server each), scheduled by schedule-due passes, several sources per job: pages/s, crawl span over the
  politeness bound, limiter overhead per request (lease acquire + release, p50), CPU per page (scrapyd jobs),
  the closest two starts on one host as the server saw them, and robots.txt reads per host.
import: `scrapy sources import FILE` of IMPORT_SOURCES sources (a JSON source file) into an empty database, beside
  a tenth of them: wall time and peak RSS of each command, and the ratios.

Run: `make bench-scale` (BENCH_ARGS="--part listing" for one part; sizes are options)."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OLD_LIST_SOURCES = """
SELECT s.id, c.name AS company, s.status, s.url, g.config_hash,
       (SELECT count(*) FROM jobs j WHERE j.source_id = s.id AND j.gone_at IS NULL) AS jobs,
       (SELECT max(r.finished_at) FROM crawl_runs r WHERE r.source_id = s.id) AS last_crawl
FROM sources s JOIN companies c ON c.id = s.company_id JOIN configurations g ON g.id = s.configuration_id
ORDER BY s.id"""


def throwaway_database(label: str) -> str:
    import psycopg
    from psycopg.conninfo import make_conninfo

    from gigflow.db.connection import embedded_server_url

    admin = os.environ.get("GIGFLOW_TEST_DATABASE_URL") or embedded_server_url()
    name = f"gigflow_bench_{label}_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return admin, name, make_conninfo(admin, dbname=name)


def drop_database(admin: str, name: str) -> None:
    import psycopg

    from gigflow.db import close_pools

    close_pools()
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def timed(conn, sql: str, params: dict | None = None, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        conn.execute(sql, params or {}).fetchall()
        best = min(best, time.perf_counter() - started)
    return best


def command_peak_rss(args: list[str], env: dict) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one `scrapy ...` command."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "scrapy", *args], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"scrapy {' '.join(args)} failed ({status})")
    return time.perf_counter() - started, usage.ru_maxrss / 1024


def command_cpu(args: list[str], env: dict) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one `scrapy ...` command: on a loaded machine the CPU time
    says what the command costs, the wall time what else ran."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "scrapy", *args], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        raise SystemExit(f"scrapy {' '.join(args)} failed ({status})")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


def bench_listing(sources: int, runs: int, jobs: int) -> None:
    from gigflow.db import get_pool
    from gigflow.sql import load_queries, load_sql

    admin, name, url = throwaway_database("listing")
    try:
        pool = get_pool(url)
        with pool.connection() as conn:
            conn.execute("INSERT INTO companies (name) SELECT 'Company ' || n FROM generate_series(1, %(n)s) n",
                         {"n": sources})
            conn.execute("""INSERT INTO configurations (company_id, config_hash, canonical_url, strategies)
                            VALUES ((SELECT min(id) FROM companies), 'bench', 'http://bench.invalid/', '[]'::jsonb)""")
            conn.execute("""INSERT INTO sources (id, company_id, configuration_id, url, status)
                            SELECT 'src' || lpad(c.id::text, 6, '0'), c.id, (SELECT min(id) FROM configurations),
                                   'http://bench.invalid/' || c.id, 'active' FROM companies c""")
            conn.execute("""INSERT INTO crawl_runs (source_id, spider, started_at, finished_at, outcome)
                            SELECT s.id, 'href', now() - make_interval(hours => n), now() - make_interval(hours => n),
                                   'finished' FROM sources s, generate_series(1, %(runs)s) n""", {"runs": runs})
            conn.execute("""INSERT INTO jobs (canonical_key, source_id, title, confidence, parser_key, parser_version,
                                              gone_at)
                            SELECT 'job' || n, 'src' || lpad((1 + n %% %(sources)s)::text, 6, '0'),
                                   'Job ' || md5(n::text), 0.9, 'bench', '1',
                                   CASE WHEN n %% 10 = 0 THEN now() END
                            FROM generate_series(1, %(jobs)s) n""", {"sources": sources, "jobs": jobs})
            conn.execute("ANALYZE")
            middle = f"src{sources // 2:06d}"
            later_job = conn.execute("SELECT id FROM jobs WHERE gone_at IS NULL ORDER BY source_id, title, id "
                                     "OFFSET %(n)s LIMIT 1", {"n": jobs // 2}).fetchone()["id"]
            list_sources, list_jobs = load_sql("gigflow.sources", "list_sources.sql"), load_queries("gigflow.store", "jobs.sql")["list_jobs"]
            old = timed(conn, OLD_LIST_SOURCES, repeat=1)
            with conn.transaction(force_rollback=True):  # as it was: without migration 0004's indexes
                conn.execute("DROP INDEX crawl_runs_source_finished, jobs_listing_live, jobs_listing")
                before = timed(conn, OLD_LIST_SOURCES, repeat=1)
            first = timed(conn, list_sources, {"after": None, "limit": 100})
            mid = timed(conn, list_sources, {"after": middle, "limit": 100})
            jobs_first = timed(conn, list_jobs, {"source_id": None, "include_gone": False, "after": None, "limit": 100})
            jobs_later = timed(conn, list_jobs, {"source_id": None, "include_gone": False, "after": later_job, "limit": 100})
        env = {**os.environ, "GIGFLOW_DATABASE_URL": url}
        sources_wall, sources_rss = command_peak_rss(["sources", "list"], env)
        jobs_wall, jobs_rss = command_peak_rss(["jobs", "--after", str(later_job)], env)
        print(f"listing: {sources} sources x {runs} runs, {jobs} jobs")
        print(f"  sources list query before (every source, a subquery each): {before:.2f} s without migration 0004's"
              f" indexes, {old:.2f} s with them; now one page: first {first * 1000:.1f} ms, middle {mid * 1000:.1f} ms"
              f" ({before / max(mid, first):.0f}x faster than before)")
        print(f"  jobs query: first page {jobs_first * 1000:.1f} ms, a middle page {jobs_later * 1000:.1f} ms")
        print(f"  commands: sources list {sources_wall:.2f} s, peak RSS {sources_rss:.0f} MiB; "
              f"jobs --after {jobs_wall:.2f} s, peak RSS {jobs_rss:.0f} MiB")
    finally:
        drop_database(admin, name)

def _old_export_sql() -> str:
    """export_canonical.sql as it was before the filters read the sightings first (every canonical job's
    sub-selects computed, then filtered)."""
    from gigflow.sql import load_sql

    sql = load_sql("gigflow.maintenance", "export_canonical.sql")
    start = sql.index("  AND (%(source_id)s::text IS NULL OR c.id = ANY(")
    end = sql.index("ORDER BY c.id")
    sql = sql[:start] + """  AND (%(source_id)s::text IS NULL OR sightings.from_source)
  AND (NOT %(published)s OR c.published_at IS NOT NULL)
  AND (%(since)s::timestamptz IS NULL OR sightings.last_seen >= %(since)s::timestamptz)
""" + sql[end:]
    return sql.replace("SELECT max(j.last_seen) AS last_seen,",
                       "SELECT max(j.last_seen) AS last_seen, bool_or(j.source_id = %(source_id)s) AS from_source,")


def bench_export(sources: int, jobs: int) -> None:
    """`scrapy jobs --format jsonl --source X` (a source of 50 jobs) and `--since` (no job seen since) on ``jobs``
    canonical jobs: the export query before and after, and the commands' wall time."""
    from gigflow.db import get_pool
    from gigflow.sql import load_sql

    admin, name, url = throwaway_database("export")
    try:
        pool = get_pool(url)
        with pool.connection() as conn:
            conn.execute("INSERT INTO companies (name) SELECT 'Company ' || n FROM generate_series(1, %(n)s) n",
                         {"n": sources})
            conn.execute("""INSERT INTO configurations (company_id, config_hash, canonical_url, strategies)
                            VALUES ((SELECT min(id) FROM companies), 'bench', 'http://bench.invalid/', '[]'::jsonb)""")
            conn.execute("""INSERT INTO sources (id, company_id, configuration_id, url, status)
                            SELECT 'src' || lpad(c.id::text, 6, '0'), c.id, (SELECT min(id) FROM configurations),
                                   'http://bench.invalid/' || c.id, 'active' FROM companies c""")
            conn.execute("UPDATE sources SET id = 'fifty' WHERE id = 'src000001'")
            # 50 jobs of source `fifty`; the rest spread over the other sources; one canonical job per job.
            conn.execute("""INSERT INTO jobs (canonical_key, source_id, title, url, confidence, parser_key,
                                              parser_version, last_seen, fields, evidence)
                            SELECT 'job' || n,
                                   CASE WHEN n <= 50 THEN 'fifty'
                                        ELSE 'src' || lpad((2 + n %% (%(sources)s - 1))::text, 6, '0') END,
                                   'Job ' || md5(n::text), 'http://bench.invalid/job/' || n, 0.9, 'bench', '1',
                                   now() - make_interval(mins => n %% 5000),
                                   jsonb_build_object('employer', 'Company ' || n %% 997, 'location', 'Geel'),
                                   '{}'::jsonb
                            FROM generate_series(1, %(jobs)s) n""", {"sources": sources, "jobs": jobs})
            conn.execute("INSERT INTO canonical_jobs (employer_key) SELECT 'company ' || id FROM jobs ORDER BY id")
            conn.execute("""INSERT INTO canonical_links (job_id, canonical_id, score)
                            SELECT j.id, j.id, 1.0 FROM jobs j""")
            conn.execute("ANALYZE")
            new, old = load_sql("gigflow.maintenance", "export_canonical.sql"), _old_export_sql()
            by_source = {"source_id": "fifty", "published": False, "since": None, "canonical_id": None}
            by_since = {"source_id": None, "published": False, "since": "2999-01-01", "canonical_id": None}
            assert len(conn.execute(new, by_source).fetchall()) == 50
            timings = {(label, which): timed(conn, sql, params, repeat=1 if which == "before" else 3)
                       for label, params in (("--source (50 jobs)", by_source), ("--since (no job)", by_since))
                       for which, sql in (("before", old), ("after", new))}
        env = {**os.environ, "GIGFLOW_DATABASE_URL": url}
        source_wall, source_cpu = command_cpu(["jobs", "--format", "jsonl", "--source", "fifty"], env)
        since_wall, since_cpu = command_cpu(["jobs", "--format", "jsonl", "--since", "2999-01-01"], env)
        help_wall, help_cpu = command_cpu(["jobs", "--help"], env)
        print(f"export: {jobs} canonical jobs over {sources} sources")
        for label in ("--source (50 jobs)", "--since (no job)"):
            before, after = timings[(label, "before")], timings[(label, "after")]
            print(f"  export query {label}: before {before:.2f} s, after {after * 1000:.1f} ms "
                  f"({before / after:.0f}x faster)")
        print(f"  commands, wall (CPU of the command process): scrapy jobs --format jsonl --source fifty "
              f"{source_wall:.2f} s ({source_cpu:.2f} s); --since 2999-01-01 {since_wall:.2f} s ({since_cpu:.2f} s); "
              f"start-up alone (scrapy jobs --help) {help_wall:.2f} s ({help_cpu:.2f} s)")
    finally:
        drop_database(admin, name)


def bench_import(count: int, tmp: Path) -> None:
    results = {}
    for n in (max(1, count // 10), count):
        path = tmp / f"sources-{n}.json"
        path.write_text(json.dumps({"sources": [
            {"id": f"imp{i:06d}", "company": f"Company {i}", "canonical_url": f"https://imp{i}.example/jobs/",
             "status": "active", "strategies": [{"type": "href", "listing_urls": [f"https://imp{i}.example/jobs/"],
                                                 "job_url_patterns": ["/jobs/[0-9]+$"]}]}
            for i in range(n)]}), encoding="utf-8")
        admin, name, url = throwaway_database("import")
        try:
            env = {**os.environ, "GIGFLOW_DATABASE_URL": url}
            command_peak_rss(["db", "upgrade"], env)  # migrations are not the import's cost
            results[n] = command_peak_rss(["sources", "import", str(path)], env)
        finally:
            drop_database(admin, name)
    (small, (small_wall, small_rss)), (large, (large_wall, large_rss)) = sorted(results.items())
    print(f"import: sources import of {small} sources {small_wall:.1f} s, peak RSS {small_rss:.0f} MiB; of {large} "
          f"sources {large_wall:.1f} s, peak RSS {large_rss:.0f} MiB (time x{large_wall / small_wall:.1f}, "
          f"RSS x{large_rss / small_rss:.2f} for x{large / small:.0f} sources)")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as resp:
        return json.loads(resp.read())


def children_cpu_seconds(pid: int) -> float:
    """CPU of the finished children a process has reaped (scrapyd's crawl jobs): cutime + cstime."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def limiter_overhead_ms(pool, samples: int = 200) -> list[float]:
    """Wall time of one lease and its release on keys nobody holds: what the limiter adds to each request."""
    from gigflow.politeness.keys import Policies
    from gigflow.politeness.limiter import Lease, Limiter

    limiter, policies = Limiter(pool), Policies(0.0, {})
    times = []
    for i in range(samples):
        started = time.perf_counter()
        lease = limiter.try_acquire(policies.for_host(f"overhead{i}.example"))
        assert isinstance(lease, Lease)
        limiter.release(lease)
        times.append((time.perf_counter() - started) * 1000)
    return times


def _site_server(host: str, jobs: int):
    """One loopback host's career sites: /s<N>/ is source N's listing of ``jobs`` job pages."""
    from tests.scripted_server import ScriptedServer, site  # the test suite's loopback server

    def route(path: str, headers: dict):
        prefix = "/" + path.split("/")[1] if path.count("/") > 1 else "/none"
        return site(prefix, jobs=jobs)(path, headers)

    return ScriptedServer(route, host=host)


def bench_crawl(sources: int, hosts: int, interval: float, jobs: int, per_job: int | None, concurrency: int,
                tmp: Path) -> None:
    from gigflow.db import get_pool
    from gigflow.politeness.keys import Policies
    from gigflow.scheduling.scrapyd import ScheduleRequest, schedule_due
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources
    from tests.scripted_server import source

    slots_per_node, node_count = 2, 2
    # One pass packs every due source into the four slots' jobs unless told otherwise (--sources-per-job 1 is
    # the old way: one crawl process per source).
    per_job = per_job or -(-sources // (slots_per_node * node_count))
    admin, name, url = throwaway_database("crawl")
    env = {**os.environ, "GIGFLOW_DATABASE_URL": url}
    nodes, servers = [], []
    try:
        for i in range(1, node_count + 1):
            folder = tmp / f"node{i}"
            folder.mkdir(parents=True)
            port = _free_port()
            (folder / "scrapyd.conf").write_text(
                f"[scrapyd]\nbind_address = 127.0.0.1\nhttp_port = {port}\nmax_proc = {slots_per_node}\n"
                "poll_interval = 0.2\neggs_dir = eggs\nlogs_dir = logs\ndbs_dir = dbs\n")
            nodes.append((f"http://127.0.0.1:{port}", subprocess.Popen(
                [sys.executable, "-m", "scrapyd"], cwd=folder, env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)))
        servers = [_site_server(f"127.0.0.{h + 1}", jobs) for h in range(hosts)]
        for server in servers:
            server.__enter__()
        import_sources(get_pool(url), parse_sources({"sources": [
            {**source(f"b{i:04d}", servers[i % hosts].url, f"/s{i}"), "id": f"b{i:04d}"} for i in range(sources)]}))
        for node_url, _ in nodes:
            for _ in range(100):
                try:
                    _get(node_url + "/daemonstatus.json")
                    break
                except OSError:
                    time.sleep(0.2)
        node_list = ",".join(u for u, _ in nodes)
        subprocess.run([sys.executable, "-m", "scrapy", "deploy", "-s", f"SCRAPYD_NODES={node_list}"], cwd=ROOT,
                       env=env, check=True, stdout=subprocess.DEVNULL)
        request = ScheduleRequest(nodes=[(u, slots_per_node) for u, _ in nodes], project="gigflow",
                                  spiders=frozenset({"href"}), claim_seconds=3600, sources_per_job=per_job,
                                  policies=Policies(interval), job_settings={
                                      "POLITENESS_MIN_INTERVAL": str(interval), "MARKDOWN_DIR": "",
                                      "FETCH_ALLOWED_PRIVATE_HOSTS": "127.0.0.0/8", "LOG_LEVEL": "WARNING",
                                      "CRAWL_CONCURRENT_SOURCES": str(concurrency)})
        started = time.time()
        jobs_scheduled = 0
        while True:  # a schedule-due pass (in this process) every second, as a frequent cron would
            results, _ = schedule_due(get_pool(url), request)
            jobs_scheduled += len({r.job_id for r in results if r.job_id})
            with get_pool(url).connection() as conn:
                done = conn.execute("SELECT count(*) AS n FROM crawl_runs WHERE finished_at IS NOT NULL").fetchone()["n"]
            if done >= sources or time.time() - started > 1800:
                break
            time.sleep(1)
        wall = time.time() - started
        with get_pool(url).connection() as conn:
            runs = conn.execute("SELECT outcome, count(*) AS n FROM crawl_runs WHERE finished_at IS NOT NULL "
                                "GROUP BY 1").fetchall()
        hits = [h for server in servers for h in server.hits]
        first, last = min(h.start for h in hits), max(h.end for h in hits)
        per_host: dict[str, list[float]] = {}
        for hit in hits:
            per_host.setdefault(hit.host.split(":")[0], []).append(hit.start)
        closest = min(b - a for starts in per_host.values() for a, b in zip(sorted(starts), sorted(starts)[1:]))
        bound = max(len(starts) - 1 for starts in per_host.values()) * interval
        pages = sum(1 for h in hits if h.path != "/robots.txt")
        cpu = sum(children_cpu_seconds(process.pid) for _, process in nodes)
        overhead = limiter_overhead_ms(get_pool(url))
        finished = sum(r["n"] for r in runs)
        print(f"crawl: {sources} sources over {hosts} hosts ({jobs} job pages each), {node_count} scrapyd nodes x "
              f"{slots_per_node} slots, interval {interval} s, {per_job} sources per job ({jobs_scheduled} jobs), "
              f"{concurrency} at once per process")
        outcomes = ", ".join(f"{r['outcome']} {r['n']}" for r in runs)
        print(f"  {finished}/{sources} runs finished ({outcomes}), {pages} "
              f"pages in {wall:.1f} s wall ({pages / wall:.2f} pages/s)")
        print(f"  crawl span (first request to last response) {last - first:.1f} s = {(last - first) / bound:.2f}x "
              f"the politeness bound ({bound:.1f} s on the busiest host)")
        robots = max(sum(1 for h in server.hits if h.path == "/robots.txt") for server in servers)
        print(f"  closest two starts on one host: {closest:.3f} s (interval {interval} s); robots.txt read at most "
              f"{robots}x per host")
        print(f"  limiter overhead per request (lease + release on a free key) p50 {statistics.median(overhead):.1f} ms,"
              f" p90 {statistics.quantiles(overhead, n=10)[-1]:.1f} ms")
        print(f"  CPU per page {cpu / pages * 1000:.0f} ms (scrapyd's crawl processes, start-up included; "
              f"{cpu:.0f} s in all)")
    finally:
        for server in servers:
            server.__exit__(None, None, None)
        for _, process in nodes:
            process.terminate()
            process.wait(timeout=30)
        drop_database(admin, name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=["listing", "export", "crawl", "import", "all"], default="all")
    parser.add_argument("--import-sources", type=int, default=10_000, help="sources in the imported file (import)")
    parser.add_argument("--sources", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=100, help="crawl runs per source (listing)")
    parser.add_argument("--jobs", type=int, default=100_000)
    parser.add_argument("--crawl-sources", type=int, default=1000)
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--interval", type=float, default=2.0, help="politeness interval of the crawl (seconds)")
    parser.add_argument("--job-pages", type=int, default=2, help="job pages per source (crawl)")
    parser.add_argument("--sources-per-job", type=int, default=None,
                        help="SCHEDULE_SOURCES_PER_JOB (default: all due sources over the four slots)")
    parser.add_argument("--concurrency", type=int, default=20, help="CRAWL_CONCURRENT_SOURCES (crawl)")
    args = parser.parse_args()
    os.chdir(ROOT)
    if args.part in ("listing", "all"):
        bench_listing(args.sources, args.runs, args.jobs)
    if args.part in ("export", "all"):
        bench_export(args.sources, args.jobs)
    if args.part in ("crawl", "all"):
        import tempfile

        with tempfile.TemporaryDirectory(prefix="gigflow-scale-") as tmp:
            bench_crawl(args.crawl_sources, args.hosts, args.interval, args.job_pages, args.sources_per_job,
                        args.concurrency, Path(tmp))
    if args.part in ("import", "all"):
        import tempfile

        with tempfile.TemporaryDirectory(prefix="gigflow-import-") as tmp:
            bench_import(args.import_sources, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
