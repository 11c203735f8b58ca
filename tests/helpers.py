"""Helpers the tests share: run scrapy as a user would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
SHARED = ROOT.parent / "shared"


def run_scrapy(*args: str, cwd: Path = ROOT, timeout: float = 120, env: dict | None = None) -> subprocess.CompletedProcess:
    """Run `python -m scrapy ARGS` in the project, as a user would; the test database comes through the env."""
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def crawl(spider: str, source: str, *settings: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`scrapy crawl SPIDER -a source=SOURCE` with the test politeness settings (short interval, loopback allowed),
    run in-process (see crawl_in_process): the same crawl, without a Python and Scrapy start-up per test."""
    overrides = dict(TEST_CRAWL_SETTINGS)
    for setting in settings:
        name, _, value = setting.partition("=")
        overrides[name] = value
    result = crawl_in_process(spider, source, overrides, timeout=timeout)
    assert result.returncode == 0, f"crawl failed:\n{result.stdout}\n{result.stderr[-4000:]}"
    return result


def crawl_in_process(spider: str, source: str, settings: dict, *, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run one crawl with Scrapy's CrawlerProcess against the test database, as `scrapy crawl` does (same settings
    priority, same exit code), in a forked child of the test process: Twisted's reactor cannot be restarted, so
    each crawl gets a fresh one while the imports are already paid for. Its stdout and stderr (the crawl log) come
    back as a CompletedProcess, like run_scrapy's."""
    import signal
    import tempfile
    import time

    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.stdout = open(1, "w", buffering=1, closefd=False)
            sys.stderr = open(2, "w", buffering=1, closefd=False)
            code = _crawl_here(spider, source, settings)
        except SystemExit as exc:  # bad input: `scrapy crawl` prints the message and exits non-zero
            if isinstance(exc.code, int):
                code = exc.code
            else:
                print(exc.code, file=sys.stderr)
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)  # no finalizer runs: the parent's database connections stay the parent's
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired(["crawl", spider, source], timeout)
        time.sleep(0.05)
    streams = []
    for stream in (out, err):
        stream.seek(0)
        streams.append(stream.read().decode("utf-8", "replace"))
        stream.close()
    return subprocess.CompletedProcess(["crawl", spider, f"source={source}"], os.waitstatus_to_exitcode(status),
                                       *streams)


_INHERITED = []  # the parent's pools, kept referenced in a child so that no collection closes their sockets


def _crawl_here(spider: str, source: str, settings: dict) -> int:
    """What `scrapy crawl SPIDER -a source=SOURCE -s NAME=VALUE...` runs, in this (forked) process."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings

    from gigflow.db import connection

    _INHERITED.extend(connection._pools.values())
    connection._pools.clear()  # the child opens its own connections
    # A reactor the test process installed (an import of twisted.internet.reactor) was never run: forget it, so
    # the crawl installs the one TWISTED_REACTOR names, as a fresh `scrapy crawl` does.
    import twisted.internet

    sys.modules.pop("twisted.internet.reactor", None)
    if hasattr(twisted.internet, "reactor"):
        del twisted.internet.reactor
    os.chdir(ROOT)
    project = get_project_settings()
    project.setdict({name: str(value) for name, value in settings.items()}, priority="cmdline")
    process = CrawlerProcess(project)
    crawler = process.create_crawler(spider)
    done = process.crawl(crawler, source=source)

    def report(failure):  # what `scrapy crawl` shows: the bad input's message, else the traceback
        if failure.check(SystemExit):
            print(failure.value.code, file=sys.stderr)
        else:
            failure.printTraceback(file=sys.stderr)

    done.addErrback(report)
    process.start()
    code = 1 if process.bootstrap_failed else 0
    return getattr(crawler, "gigflow_exitcode", 0) or code


ALERTS = {  # the adapter cases' alert messages, under the names a mailbox holds them by
    "2026-11-30-jobboard.eml": FIXTURES / "adapters" / "email" / "platform-alert" / "input.eml",
    "2026-12-01-employer.eml": FIXTURES / "adapters" / "email" / "employer-alert" / "input.eml",
}
MAILDIR_NAMES = {"2026-11-30-jobboard.eml": "cur/1764478800.M1P1.inbox:2,S",
                 "2026-12-01-employer.eml": "new/1764576000.M2P1.inbox"}


def eml_folder(dest: Path) -> Path:
    """A folder of .eml files: fixtures/mailbox/eml (a copy of one alert, one without a Message-ID) and the
    adapter cases' two alerts (each fixture file is kept once)."""
    import shutil

    shutil.copytree(FIXTURES / "mailbox" / "eml", dest, dirs_exist_ok=True)
    for name, source in ALERTS.items():
        shutil.copyfile(source, dest / name)
    return dest


def maildir(dest: Path) -> Path:
    """A Maildir (cur/, new/, tmp/) holding the job-board and employer alerts."""
    import shutil

    for sub in ("cur", "new", "tmp"):
        (dest / sub).mkdir(parents=True, exist_ok=True)
    for name, path in MAILDIR_NAMES.items():
        shutil.copyfile(ALERTS[name], dest / path)
    return dest


PLACEHOLDER_ORIGIN = "http://127.0.0.1:8765"  # fixture sites and sources name this; copies get the real address


def copy_site(site: Path, dest: Path, origin: str) -> Path:
    """Copy a fixture site to ``dest``, rewriting the placeholder origin in text files to ``origin``."""
    import shutil

    shutil.copytree(site, dest, dirs_exist_ok=True)
    for path in dest.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".xml", ".txt", ".json", ".js"):
            path.write_text(path.read_text(encoding="utf-8").replace(PLACEHOLDER_ORIGIN, origin), encoding="utf-8")
    return dest


def import_source(pool, source: dict, origin: str) -> None:
    """Import one source given as a dict, with the placeholder origin rewritten to ``origin``."""
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources

    text = json.dumps({"sources": [source]}).replace(PLACEHOLDER_ORIGIN, origin)
    import_sources(pool, parse_sources(json.loads(text)))


def import_demo(pool, server):
    """Import fixtures/sources/demo.yaml pointed at the given fixture server."""
    [source] = yaml.safe_load((FIXTURES / "sources" / "demo.yaml").read_text())["sources"]
    import_source(pool, source, server.url)


def last_run(pool) -> dict:
    """The newest crawl run: its stats and outcome."""
    with pool.connection() as conn:
        return conn.execute("SELECT stats, outcome FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()


TEST_CRAWL_SETTINGS = {"POLITENESS_MIN_INTERVAL": 0, "FETCH_ALLOWED_PRIVATE_HOSTS": "127.0.0.1", "MARKDOWN_DIR": "",
                       "LOG_LEVEL": "INFO"}


def crawl_sequence(*steps: tuple, timeout: float = 240) -> list[int]:
    """Crawls one after another in ONE scrapy process (start-up paid once): each step is (spider, source) or
    (spider, source, {settings}); returns each crawl's exit code (0: ran and was finalized)."""
    plan = [{"spider": s[0], "source": s[1], "settings": {**TEST_CRAWL_SETTINGS, **(s[2] if len(s) > 2 else {})}}
            for s in steps]
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "crawl_sequence.py"), json.dumps(plan)], cwd=ROOT,
                            capture_output=True, text=True, timeout=timeout, env=dict(os.environ))
    assert result.returncode == 0, f"crawls failed:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])
