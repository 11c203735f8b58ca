"""Click-crawl memory bench: a 50-item JavaScript listing crawled in headless Chromium.

Samples the resident memory (RSS, and PSS where the kernel offers it) of every Chromium process of the crawl each
time ten more items have been clicked, then checks that no Chromium process outlived the crawl.

    .venv/bin/python bench/click_bench.py [--items 50] [--per-context 20]

Uses a throw-away database gigflow_bench_* on GIGFLOW_TEST_DATABASE_URL's server (else the embedded one).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gigflow.devserver import FixtureServer  # noqa: E402


def build_site(dest: Path, items: int) -> None:
    shutil.copytree(ROOT / "fixtures" / "sites" / "click", dest / "click")
    details = dest / "click" / "details"
    shutil.rmtree(details)
    details.mkdir()
    jobs = []
    for n in range(items):
        job = {"id": str(1000 + n), "title": f"Engineer {n:02d}", "location": "Delft"}
        if n % 5:
            job["path"] = f"jobs/engineer-{n:02d}"  # every fifth detail keeps the listing's URL
        jobs.append(job)
        description = f"Role {n}: " + "build and test inspection systems. " * 40
        (details / f"{job['id']}.json").write_text(json.dumps({
            "title": job["title"], "location": "Delft", "type": "FULL_TIME", "posted": "2024-05-06",
            "description": description}))
    (dest / "click" / "jobs.json").write_text(json.dumps(jobs))


def crawl_processes(marker: bytes, profiles: set[bytes]) -> list[int]:
    """The crawl's Chromium processes: those that inherited ``marker`` in their environment (the browser and its
    crash handlers) and those whose command line names the browser's profile folder (zygotes, renderers, GPU and
    utility processes start with a cleaned environment). Newly seen profile folders are added to ``profiles``."""
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            if b"chrom" not in cmdline:
                continue
            if marker in (entry / "environ").read_bytes():
                profiles.update(arg.split(b"=", 1)[1] for arg in cmdline.split(b"\0")
                                if arg.startswith(b"--user-data-dir="))
                pids.append(int(entry.name))
            elif any(profile in cmdline for profile in profiles):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


def memory_kib(pid: int) -> tuple[int, int]:
    rss = pss = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        rollup = Path(f"/proc/{pid}/smaps_rollup")
        if rollup.exists():
            for line in rollup.read_text().splitlines():
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=50)
    parser.add_argument("--per-context", type=int, default=20, help="CLICK_ITEMS_PER_CONTEXT")
    args = parser.parse_args()

    from gigflow.db.connection import embedded_server_url

    admin_url = os.environ.get("GIGFLOW_TEST_DATABASE_URL") or embedded_server_url()
    name = f"gigflow_bench_{secrets.token_hex(3)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    db_url = make_conninfo(admin_url, dbname=name)
    marker = f"GIGFLOW_CLICK_BENCH={secrets.token_hex(6)}"
    workdir = Path(tempfile.mkdtemp(prefix="gigflow-click-bench-"))
    samples: list[dict] = []
    try:
        build_site(workdir, args.items)
        with FixtureServer(workdir) as server:
            listing = f"{server.url}/click/index.html?page_size=10"
            env = {**os.environ, "GIGFLOW_DATABASE_URL": db_url, marker.split("=")[0]: marker.split("=")[1]}
            sources = workdir / "sources.json"
            sources.write_text(json.dumps({"sources": [{
                "id": "bench", "company": "Lumen Labs", "canonical_url": listing, "status": "active",
                "strategies": [{"type": "click", "listing_url": listing, "item_selector": "li.job",
                                "detail_selector": "#detail", "load_more_selector": "button.load-more",
                                "max_items": args.items}]}]}))
            scrapy = [sys.executable, "-m", "scrapy"]
            subprocess.run([*scrapy, "sources", "import", str(sources)], cwd=ROOT, env=env, check=True,
                           capture_output=True)
            started = time.time()
            crawl = subprocess.Popen([*scrapy, "crawl", "click", "-a", "source=bench", "-s", "POLITENESS_MIN_INTERVAL=0",
                                      "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "MARKDOWN_DIR=",
                                      "-s", f"CLICK_ITEMS_PER_CONTEXT={args.per_context}", "-s", f"LOG_LEVEL={os.environ.get('BENCH_LOG', 'WARNING')}"],
                                     cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            done = threading.Event()
            output: list[str] = []
            threading.Thread(target=lambda: (output.append(crawl.communicate()[1]), done.set()), daemon=True).start()
            next_mark = 10
            profiles: set[bytes] = set()
            while not done.is_set():
                clicked = sum(1 for _, _, path, _ in list(server.requests) if "/click/details/" in path)
                if clicked >= next_mark:
                    crawl_processes(marker.encode(), profiles)  # learn the profile folder first
                    pids = crawl_processes(marker.encode(), profiles)
                    mem = [memory_kib(pid) for pid in pids]
                    samples.append({"items": clicked, "processes": len(pids),
                                    "rss_mib": round(sum(r for r, _ in mem) / 1024, 1),
                                    "pss_mib": round(sum(p for _, p in mem) / 1024, 1)})
                    next_mark += 10
                time.sleep(0.05)
            elapsed = time.time() - started
        time.sleep(0.5)
        leftover = crawl_processes(marker.encode(), profiles)
        with psycopg.connect(db_url) as conn:
            jobs = conn.execute("SELECT count(*) FROM jobs").fetchone()[0]
            outcome = conn.execute("SELECT outcome FROM crawl_runs").fetchone()[0]
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    print(f"click bench: {args.items} items, {args.per_context} per context, {elapsed:.1f} s, "
          f"{jobs} jobs stored, run {outcome}, exit {crawl.returncode}")
    print("items  chromium processes  RSS MiB  PSS MiB")
    for s in samples:
        print(f"{s['items']:>5}  {s['processes']:>18}  {s['rss_mib']:>7}  {s['pss_mib']:>7}")
    if len(samples) >= 2 and samples[0]["pss_mib"]:
        print(f"PSS last/first: {samples[-1]['pss_mib'] / samples[0]['pss_mib']:.2f}; "
              f"RSS last/first: {samples[-1]['rss_mib'] / samples[0]['rss_mib']:.2f}")
    print(f"Chromium processes left after the crawl: {len(leftover)} (browser profile folders watched: {len(profiles)})")
    if crawl.returncode or os.environ.get('BENCH_LOG'):
        print(output[0][-3000:] if output else "", file=sys.stderr)
    return 1 if leftover or not profiles or crawl.returncode or jobs != args.items else 0


if __name__ == "__main__":
    raise SystemExit(main())
