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
    """Run `python -m scrapy ARGS` in a new interpreter, as a user would; the test database comes through the env.
    For what only a real process shows (its own start-up, several processes at once, a deployed egg); other tests
    run their commands with scrapy_command, in the test process or a forked child (a module using either is `e2e`)."""
    return subprocess.run([sys.executable, "-m", "scrapy", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def scrapy_command(*args: str, cwd: Path = ROOT, timeout: float = 120,
                   env: dict | None = None) -> subprocess.CompletedProcess:
    """`scrapy ARGS` as run_scrapy runs it (same argv, working folder, environment, exit code, stdout and stderr),
    through Scrapy's own entry point (scrapy.cmdline.execute), without paying Python's and Scrapy's start-up each
    time. A command that needs a crawler process (Twisted's reactor, which cannot restart: `crawl`,
    `schedule-due`, `sources try`, ...; see needs_crawler_process) runs in a forked child (in_child); any other
    runs here, in the test process (in_process)."""
    import scrapy.__main__
    from scrapy.cmdline import execute

    argv = [scrapy.__main__.__file__, *args]
    run = in_child if needs_crawler_process(args, cwd=cwd, env=env) else in_process
    return run(lambda: execute(["scrapy", *args]), argv, cwd=cwd, env=env, timeout=timeout)


def needs_crawler_process(args, *, cwd: Path = ROOT, env: dict | None = None) -> bool:
    """Whether `scrapy ARGS` runs a crawler process, asked of the command itself as scrapy.cmdline.execute finds
    and parses it: its ``requires_crawler_process`` (a gigflow command that crawls for some arguments says so in
    ``crawls``, e.g. `sources try`). Nothing runs: no settings are applied, nothing is logged."""
    from scrapy.cmdline import ScrapyArgumentParser, _get_commands_dict, _pop_command_name, inside_project
    from scrapy.utils.project import get_project_settings

    warm()
    with _as_command(["scrapy", *args], cwd, env):
        settings = get_project_settings()
        argv = ["scrapy", *args]
        name = _pop_command_name(argv)
        command = _get_commands_dict(settings, inside_project()).get(name)
        if command is None:  # no command, or an unknown one: execute prints the list and exits
            return False
        parser = ScrapyArgumentParser(conflict_handler="resolve")
        command.settings = settings
        command.add_options(parser)
        _, positional = parser.parse_known_args(args=argv[1:])
        crawls = getattr(command, "crawls", None)
        return bool(crawls(positional) if crawls else command.requires_crawler_process)


def in_process(body, argv: list[str], *, cwd: Path = ROOT, env: dict | None = None,
               timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``body()`` here, in the test process, as `python ARGV` would run it, and return what in_child returns:
    the exit code (``body``'s return value or SystemExit, as the interpreter turns them into one; an uncaught
    exception is reported by sys.excepthook and is 1), stdout and stderr (file descriptors 1 and 2, so what a
    subprocess prints is caught too). For the duration: ``env`` added to the environment, ``cwd`` the working
    folder, ``argv`` sys.argv; afterwards these, sys.path and what Scrapy's logging set-up changed (the root
    handler, logger levels, the warnings capture, Twisted's log observer) are as they were. Past ``timeout``
    seconds (in the main thread) the command is interrupted with subprocess.TimeoutExpired."""
    import tempfile
    import warnings

    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    saved_fds = os.dup(1), os.dup(2)
    saved_streams = sys.stdout, sys.stderr
    reactor_before = "twisted.internet.reactor" in sys.modules
    code = 1
    try:
        _write_std_to(out, err)
        with _as_command(argv, cwd, env), _logging_restored(), warnings.catch_warnings(), _deadline(timeout, argv):
            _new_interpreter_warnings()
            try:
                code = body() or 0
            except SystemExit as exc:
                code = _exit_code(exc)
            except subprocess.TimeoutExpired:
                raise
            except Exception:  # as the interpreter reports it (gigflow.commands installs a hook for some errors)
                sys.excepthook(*sys.exc_info())
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        sys.stdout, sys.stderr = saved_streams
        for fd, saved in zip((1, 2), saved_fds):
            os.dup2(saved, fd)
            os.close(saved)
    streams = _read_back(out, err)
    assert reactor_before or "twisted.internet.reactor" not in sys.modules, (
        f"{argv[1:]} installed a Twisted reactor in the test process: the command needs a crawler process "
        "(requires_crawler_process, or GigflowCommand.crawls) and must run in a forked child")
    return subprocess.CompletedProcess([sys.executable, *argv], code, *streams)


def _write_std_to(out, err) -> None:
    """File descriptors 1 and 2 (and sys.stdout/sys.stderr over them) written to ``out`` and ``err``: what a
    subprocess started by the command prints is caught too."""
    os.dup2(out.fileno(), 1)
    os.dup2(err.fileno(), 2)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)


def _exit_code(exc: SystemExit) -> int:
    """As the interpreter exits on SystemExit: None is 0, a message is printed and exits 1."""
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or 0
    print(exc.code, file=sys.stderr)
    return 1


def _read_back(out, err) -> list[str]:
    streams = []
    for stream in (out, err):
        stream.seek(0)
        streams.append(stream.read().decode("utf-8", "replace"))
        stream.close()
    return streams


class _as_command:
    """The environment (plus ``env``), working folder, sys.argv and sys.path of one command, restored on exit."""

    def __init__(self, argv: list[str], cwd: Path, env: dict | None):
        self.argv, self.cwd, self.env = list(argv), cwd, env or {}

    def __enter__(self):
        self.saved = dict(os.environ), os.getcwd(), sys.argv, list(sys.path)
        os.environ.update(self.env)
        os.chdir(self.cwd)
        sys.argv = self.argv

    def __exit__(self, *exc):
        environ, cwd, sys.argv, sys.path[:] = self.saved
        os.environ.clear()
        os.environ.update(environ)
        os.chdir(cwd)


class _logging_restored:
    """What scrapy.utils.log.configure_logging (run by every command) changes in the logging of the process,
    put back on exit: the root logger's and every existing logger's level, handlers and filters, the warnings
    capture and the Python logging observer it adds to Twisted's global log publisher."""

    def __enter__(self):
        import logging

        from twisted.logger import globalLogPublisher

        loggers = [logging.root, *(logger for logger in logging.root.manager.loggerDict.values()
                                   if isinstance(logger, logging.Logger))]
        self.saved = [(logger, logger.level, list(logger.handlers), list(logger.filters), logger.propagate,
                       logger.disabled) for logger in loggers]
        self.captured = logging._warnings_showwarning
        self.observers = list(globalLogPublisher._observers)

    def __exit__(self, *exc):
        import logging

        from twisted.logger import globalLogPublisher

        for logger, level, handlers, filters, propagate, disabled in self.saved:
            for handler in logger.handlers:
                if handler not in handlers:
                    handler.close()
            logger.setLevel(level)
            logger.handlers[:] = handlers
            logger.filters[:] = filters
            logger.propagate, logger.disabled = propagate, disabled
        logging._warnings_showwarning = self.captured
        globalLogPublisher._observers[:] = self.observers


class _deadline:
    """SIGALRM after ``timeout`` seconds raises subprocess.TimeoutExpired in the command (main thread only)."""

    def __init__(self, timeout: float, argv: list[str]):
        self.timeout, self.argv = timeout, argv

    def __enter__(self):
        import signal
        import threading

        self.armed = threading.current_thread() is threading.main_thread()
        if self.armed:
            def expired(signum, frame):
                raise subprocess.TimeoutExpired([sys.executable, *self.argv], self.timeout)

            self.previous = signal.signal(signal.SIGALRM, expired)
            signal.setitimer(signal.ITIMER_REAL, self.timeout)

    def __exit__(self, *exc):
        import signal

        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)


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


def crawl_in_process(spider: str, source: str, settings: dict, *, timeout: float = 120,
                     env: dict | None = None) -> subprocess.CompletedProcess:
    """Run one crawl with Scrapy's CrawlerProcess against the test database, as `scrapy crawl` does (same settings
    priority, same exit code), in a forked child of the test process (see in_child). Its stdout and stderr (the
    crawl log) come back as a CompletedProcess, like run_scrapy's."""
    import scrapy.__main__

    argv = [scrapy.__main__.__file__, "crawl", spider, "-a", f"source={source}"]
    for name, value in settings.items():
        argv += ["-s", f"{name}={value}"]
    return in_child(lambda: _crawl_here(spider, source, settings), argv, env=env, timeout=timeout)


def in_child(body, argv: list[str], *, cwd: Path = ROOT, env: dict | None = None,
             timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``body()`` in a forked child of the test process set up as `python ARGV` would be (see _as_new_process)
    and return what a subprocess.run(capture_output=True, text=True) of that would: the exit code (``body``'s
    return value or SystemExit, as the interpreter turns them into one), stdout and stderr. Twisted's reactor
    cannot be restarted, so each crawl gets a fresh one while the imports are already paid for (warm)."""
    import select
    import signal
    import tempfile
    import time

    warm()
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        code = 1
        try:
            _write_std_to(out, err)
            _as_new_process(argv, cwd, env)
            code = body() or 0
        except SystemExit as exc:
            code = _exit_code(exc)
        except BaseException:  # as the interpreter reports it (gigflow.commands installs a hook for some errors)
            sys.excepthook(*sys.exc_info())
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)  # no finalizer runs: the parent's database connections stay the parent's
    deadline = time.monotonic() + timeout
    if hasattr(os, "pidfd_open"):  # Linux: a descriptor that turns readable when the child exits
        with os.fdopen(os.pidfd_open(pid), "rb", buffering=0) as exited:
            while not select.select([exited], [], [], max(0.0, deadline - time.monotonic()))[0]:
                if time.monotonic() > deadline:
                    break
    while True:  # (elsewhere: poll)
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            out.close()
            err.close()
            raise subprocess.TimeoutExpired([sys.executable, *argv], timeout)
        time.sleep(0.01)
    streams = _read_back(out, err)
    return subprocess.CompletedProcess([sys.executable, *argv], os.waitstatus_to_exitcode(status), *streams)


_INHERITED = []  # the parent's pools, kept referenced in a child so that no collection closes their sockets


def _as_new_process(argv: list[str], cwd: Path, env: dict | None) -> None:
    """In a forked child: drop what the test process set up and a new `python ARGV` would not have."""
    import logging

    from gigflow.db import connection

    _INHERITED.extend(connection._pools.values())
    connection._pools.clear()  # the child opens its own connections
    # A reactor the test process installed (an import of twisted.internet.reactor) was never run: forget it, so
    # the crawl installs the one TWISTED_REACTOR names, as a fresh `scrapy crawl` does.
    import twisted.internet

    sys.modules.pop("twisted.internet.reactor", None)
    if hasattr(twisted.internet, "reactor"):
        del twisted.internet.reactor
    # pytest's log capture and warning recorder: a new interpreter logs where Scrapy says and prints warnings
    # to stderr under the default filters.
    for handler in list(logging.root.handlers):
        if type(handler).__module__.startswith("_pytest"):
            logging.root.removeHandler(handler)
    _new_interpreter_warnings()
    os.environ.update(env or {})
    os.chdir(cwd)
    sys.argv = list(argv)


def _new_interpreter_warnings() -> None:
    """Python's default warning filters, and warnings printed to stderr: as a new interpreter has them (pytest
    records warnings instead)."""
    import warnings

    warnings.resetwarnings()
    for category, action, module in ((DeprecationWarning, "default", "__main__"), (DeprecationWarning, "ignore", ""),
                                     (PendingDeprecationWarning, "ignore", ""), (ImportWarning, "ignore", ""),
                                     (ResourceWarning, "ignore", "")):
        warnings.filterwarnings(action, category=category, module=module, append=True)
    warnings.showwarning = warnings._showwarning_orig
    warnings._showwarnmsg_impl = _pristine_warnings()._showwarnmsg_impl


def _pristine_warnings():
    """A private copy of the warnings module, for the function that prints a warning (pytest replaced it)."""
    import importlib.util

    spec = importlib.util.find_spec("warnings")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _crawl_here(spider: str, source: str, settings: dict) -> int:
    """What `scrapy crawl SPIDER -a source=SOURCE -s NAME=VALUE...` runs, in this (forked) process."""
    from scrapy.crawler import CrawlerProcess
    from scrapy.utils.project import get_project_settings
    from gigflow.runs.ledger import run_ledger

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
    return run_ledger(crawler).exit_code or code


_warm = []


def warm() -> None:
    """Pay once per test process what every crawl and command would pay in its child: the imports of every
    Scrapy component, spider and command the project names, and the data the adapters load on first use (the
    gazetteer, dateparser's languages). Nothing here opens a connection, starts a thread or installs a reactor."""
    if _warm:
        return
    _warm.append(True)
    import re
    from datetime import datetime, timezone

    from scrapy.settings import Settings
    from scrapy.spiderloader import SpiderLoader
    from scrapy.utils.misc import load_object, walk_modules_iter

    import scrapy.cmdline  # noqa: F401
    import scrapy.crawler  # noqa: F401
    from gigflow.adapters.dates import normalise_date
    from gigflow.adapters.gazetteer import _names

    settings = Settings()
    settings.setmodule("gigflow.settings", priority="project")
    for package in ("scrapy.commands", "gigflow.commands"):
        list(walk_modules_iter(package))
    spiders = SpiderLoader.from_settings(settings.frozencopy())  # imports every spider module
    dotted = re.compile(r"(scrapy|gigflow|twisted|scrapy_playwright)(\.\w+)+")
    paths = set()
    for values in (dict(settings), *(spiders.load(name).custom_settings or {} for name in spiders.list())):
        for value in values.values():
            value = value.copy_to_dict() if hasattr(value, "copy_to_dict") else value
            for item in (value.items() if isinstance(value, dict) else [(value, None)]):
                paths.update(p for p in item if isinstance(p, str) and dotted.fullmatch(p))
    for path in sorted(paths):
        try:
            load_object(path)
        except Exception:  # an optional component (S3, FTP) or a name that only looks dotted: a child pays it
            pass
    _names()
    normalise_date("1 März 2026", fetched_at=datetime.now(timezone.utc))


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


# No interval between requests to one site, and a request waiting for the one before it (its key's lease) asks
# again after 0.02 s instead of the default 0.1 s: a 5-page crawl waited 0.4 s for nothing.
TEST_CRAWL_SETTINGS = {"POLITENESS_MIN_INTERVAL": 0, "POLITENESS_POLL_SECONDS": 0.02,
                       "FETCH_ALLOWED_PRIVATE_HOSTS": "127.0.0.1", "MARKDOWN_DIR": "", "LOG_LEVEL": "INFO"}


def crawl_sequence(*steps: tuple, timeout: float = 240) -> list[int]:
    """Crawls one after another in ONE scrapy process (tests/crawl_sequence.py, in a forked child like
    crawl_in_process): each step is (spider, source) or (spider, source, {settings}); returns each crawl's exit
    code (0: ran and was finalized)."""
    import crawl_sequence as sequence

    plan = [{"spider": s[0], "source": s[1], "settings": {**TEST_CRAWL_SETTINGS, **(s[2] if len(s) > 2 else {})}}
            for s in steps]
    result = in_child(lambda: sequence.main(plan), [sequence.__file__, json.dumps(plan)], timeout=timeout)
    assert result.returncode == 0, f"crawls failed:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def start_crawl(source_id: str, *settings: str, env: dict | None = None) -> subprocess.Popen:
    """A real `scrapy crawl href -a source=ID` process (for kills, outages and second crawls), fast settings."""
    args = [sys.executable, "-m", "scrapy", "crawl", "href", "-a", f"source={source_id}", "-s",
            "POLITENESS_MIN_INTERVAL=0", "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "MARKDOWN_DIR=",
            "-s", "CRAWL_HEARTBEAT_SECONDS=0.5"]
    for setting in settings:
        args += ["-s", setting]
    return subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})


def wait_for_run(url: str, timeout: float = 60) -> dict:
    """The newest unfinished run once a crawl has opened it."""
    import time

    import psycopg
    from psycopg.rows import dict_row

    deadline = time.time() + timeout
    with psycopg.connect(url, row_factory=dict_row, autocommit=True) as conn:
        while time.time() < deadline:
            row = conn.execute("SELECT * FROM crawl_runs WHERE finished_at IS NULL ORDER BY id DESC LIMIT 1").fetchone()
            if row:
                return row
            time.sleep(0.1)
    raise AssertionError("the crawl never started its run")
