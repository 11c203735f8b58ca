"""Faults, scripted (docs/faults.md): a private PostgreSQL started on its own port (restarted and stopped with
``-m immediate`` as an outage does) and a loopback site that logs every arrival, against real `scrapy` processes.

Prints each figure: whether a second crawl started after a database restart was refused, live jobs wrongly marked
gone, how soon a killed crawl's politeness key is free, how a crawl ends when its database goes away for good (clean
stop or hang, in seconds), how fast a command started without a database fails, and how many requests a run sends
to a key after its first bot challenge. Run: `make bench-faults` (about 2-3 minutes)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

CRAWL = ["-s", "POLITENESS_MIN_INTERVAL=0", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "MARKDOWN_DIR=",
         "-s", "CRAWL_HEARTBEAT_SECONDS=1", "-s", "LOG_LEVEL=INFO"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PrivatePostgres:
    """initdb + pg_ctl on a free 127.0.0.1 port in a temporary folder (as the postgres user when run as root)."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="gigflow-faults-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.bin = Path(shutil.which("pg_ctl") or "").parent
        if not (self.bin / "pg_ctl").exists():
            import pgserver

            self.bin = Path(pgserver.__file__).parent / "pginstall" / "bin"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, capture_output=True)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-o",
                  f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.folder} -c fsync=off", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def close(self) -> None:
        try:
            self.stop()
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


def scrapy(*args: str, env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "scrapy", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def query(url: str, sql: str, params=()) -> list[dict]:
    import psycopg
    from psycopg.rows import dict_row

    with psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=3) as conn:
        return conn.execute(sql, params).fetchall()


def wait_for(condition, timeout: float, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return None


def open_run(url: str, source_id: str):
    def check():
        try:
            return query(url, "SELECT id FROM crawl_runs WHERE source_id = %s AND finished_at IS NULL", (source_id,))
        except Exception:
            return None

    return wait_for(check, 60)


def main() -> int:
    from gigflow.db import close_pools, get_pool
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources
    from scripted_server import Reply, ScriptedServer, site, source

    figures: list[tuple[str, str]] = []

    def say(name: str, value) -> None:
        figures.append((name, str(value)))
        print(f"{name:<62} {value}", flush=True)

    began = time.monotonic()
    pg = PrivatePostgres()
    pg.start()
    env = {**os.environ, "GIGFLOW_DATABASE_URL": pg.url}
    os.environ["GIGFLOW_DATABASE_URL"] = pg.url
    challenge = (ROOT / "fixtures" / "challenges" / "cloudflare-interstitial.html").read_bytes()
    slow_jobs = site("/r", jobs=30, job_delay=0.25)
    walled = site("/w", jobs=10)
    held = site("/k", jobs=3)
    gone = site("/g", jobs=40, job_delay=0.25)

    def route(path, headers):
        if path.startswith("/w/jobs/"):
            return Reply(status=403, body=challenge, headers={"Content-Type": "text/html", "cf-mitigated": "challenge"})
        if path.startswith("/k/jobs/"):
            return Reply(body=b"<html>late</html>", delay=15)
        for prefix, pages in (("/r", slow_jobs), ("/w", walled), ("/k", held), ("/g", gone)):
            if path.startswith(prefix + "/"):
                return pages(path, headers)
        return slow_jobs(path, headers)

    try:
        with ScriptedServer(route) as server:
            server.httpd.handle_error = lambda *args: None  # a killed crawl's dropped connection is expected here
            pool = get_pool(pg.url)
            import_sources(pool, parse_sources([source(s, server.url, f"/{s}") for s in ("r", "w", "k", "g")]))
            close_pools()

            # 1. A database restart while a crawl runs; a second crawl of the source started just after it.
            done = scrapy("crawl", "href", "-a", "source=r", *CRAWL, env=env)
            assert done.wait(120) == 0, done.stderr.read()[-3000:]
            first = scrapy("crawl", "href", "-a", "source=r", *CRAWL, env=env)
            open_run(pg.url, "r")
            time.sleep(1.5)
            pg.stop()
            pg.start()  # crash recovery: every connection of the crawl is gone
            second = scrapy("crawl", "href", "-a", "source=r", *CRAWL, env=env)
            second_rc = second.wait(120)
            first_rc = first.wait(180)
            runs = query(pg.url, "SELECT outcome FROM crawl_runs WHERE source_id = 'r' ORDER BY id")
            live = query(pg.url, "SELECT count(*) FILTER (WHERE gone_at IS NULL) AS live, "
                                 "count(*) FILTER (WHERE gone_at IS NOT NULL) AS gone FROM jobs WHERE source_id = 'r'")[0]
            say("restart: second crawl refused (exit 3)?", f"{'yes' if second_rc == 3 else 'NO'} (exit {second_rc})")
            say("restart: first crawl exit / outcome", f"{first_rc} / {runs[1]['outcome'] if len(runs) > 1 else '-'}")
            say("restart: live jobs wrongly marked gone", f"{live['gone']} of {live['gone'] + live['live']}")

            # 2. A crawl killed with a request in flight: how soon is its politeness key free?
            from gigflow.politeness.keys import Policy
            from gigflow.politeness.limiter import Lease, Limiter

            killed = scrapy("crawl", "href", "-a", "source=k", *CRAWL, env=env)
            in_flight = wait_for(lambda: query(pg.url, "SELECT key FROM politeness_leases WHERE url LIKE %s",
                                               ("%/k/jobs/%",)), 60)
            time.sleep(0.3)  # the request is on its way to the site (which holds it 15 s)
            key = in_flight[0]["key"]
            killed.send_signal(signal.SIGKILL)
            killed.wait(30)
            at = time.monotonic()
            limiter = Limiter(get_pool(pg.url), lease_seconds=120)
            lease = wait_for(lambda: (lambda got: got if isinstance(got, Lease) else None)(
                limiter.try_acquire(Policy(key, 0.0))), 150, step=0.05)
            say("kill -9 with a request in flight: key free after (s)",
                f"{time.monotonic() - at:.2f}" if lease else "> 150 (never)")
            if lease:
                limiter.release(lease)
            close_pools()

            # 3. At the first challenge page no further request of the run goes to the key.
            arrivals = len(server.hits)
            walled_run = scrapy("crawl", "href", "-a", "source=w", *CRAWL, env=env)
            walled_run.wait(120)
            job_hits = [h for h in server.hits[arrivals:] if "/w/jobs/" in h.path]
            outcome = query(pg.url, "SELECT outcome FROM crawl_runs WHERE source_id = 'w'")[0]["outcome"]
            say("challenge: job pages requested (first one included)", f"{len(job_hits)} of 10 ({outcome})")

            # 4. The database gone for good while a crawl runs (DATABASE_OUTAGE_SECONDS=10).
            crawling = scrapy("crawl", "href", "-a", "source=g", *CRAWL, "-s", "DATABASE_OUTAGE_SECONDS=10",
                              "-s", "DATABASE_FINALIZE_WAIT=5", env=env)
            open_run(pg.url, "g")
            time.sleep(2)
            pg.stop()
            at, arrivals = time.monotonic(), len(server.hits)
            try:
                rc = crawling.wait(120)
                ended = f"clean stop after {time.monotonic() - at:.1f} s (exit {rc})"
            except subprocess.TimeoutExpired:
                crawling.kill()
                ended = "HANG (> 120 s)"
            err = crawling.stderr.read()
            say("database gone for good: crawl ends", ended)
            say("database gone for good: site requests after the outage", len(server.hits) - arrivals)
            say("database gone for good: 'fetch failed' blamed on the site?", "yes" if "fetch failed" in err else "no")

            # 5. A command started while the database is down.
            at = time.monotonic()
            command = subprocess.run([sys.executable, "-m", "scrapy", "jobs"], cwd=ROOT, env=env, capture_output=True,
                                     text=True, timeout=120)
            lines = [line for line in (command.stdout + command.stderr).splitlines() if line.strip()]
            say("command with the database down: fails after (s)", f"{time.monotonic() - at:.1f} (exit "
                f"{command.returncode}, {len(lines)} line{'s' if len(lines) != 1 else ''})")
            print(f"    {lines[0] if lines else ''}")
            bad = subprocess.run([sys.executable, "-m", "scrapy", "jobs"], cwd=ROOT, capture_output=True, text=True,
                                 env={**env, "GIGFLOW_DATABASE_URL": "postgresql://[bad"}, timeout=120)
            bad_lines = [line for line in (bad.stdout + bad.stderr).splitlines() if line.strip()]
            say("command with a malformed GIGFLOW_DATABASE_URL: lines / exit", f"{len(bad_lines)} / {bad.returncode}")

            # The database back: the gone-for-good run is closed by the sweep (its process is gone), nothing lost.
            pg.start()
            sweep = subprocess.run([sys.executable, "-m", "scrapy", "sources", "sweep"], cwd=ROOT, env=env,
                                   capture_output=True, text=True, timeout=120)
            g = query(pg.url, "SELECT outcome FROM crawl_runs WHERE source_id = 'g'")
            say("database back: the stopped run's outcome", (g[0]["outcome"] if g else "-")
                + ("" if sweep.returncode == 0 else " (sweep failed)"))
    finally:
        close_pools()
        pg.close()
    print(f"\n({time.monotonic() - began:.0f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
