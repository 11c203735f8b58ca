"""Database connections: GIGFLOW_DATABASE_URL, or an embedded PostgreSQL that starts by itself."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from pathlib import Path

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from gigflow.paths import configured_markdown_dir, data_dir
from gigflow.store.versions import migrate_markdown_files

logger = logging.getLogger(__name__)

_pools: dict[str, ConnectionPool] = {}
_lock = threading.Lock()
# URLs a DATABASE_URL setting named in this process: an error about one of them says so (url_origin).
_setting_urls: set[str] = set()


def embedded_server_url() -> str:
    """Start (or reuse) the embedded PostgreSQL under .gigflow/pgdata and return its URL."""
    import pgserver

    # pgserver logs every check it makes at INFO (and again at exit); only its warnings and errors concern a
    # user, so commands that log stay quiet unless someone set this logger's level on purpose.
    pgserver_logger = logging.getLogger("pgserver")
    if pgserver_logger.level == logging.NOTSET:
        pgserver_logger.setLevel(logging.WARNING)
    pgdata = data_dir() / "pgdata"
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    # cleanup_mode=None: the server outlives this process so every later command reuses it.
    with _one_starter(pgdata):
        server = pgserver.get_server(pgdata, cleanup_mode=None)
    return server.get_uri()


@contextlib.contextmanager
def _one_starter(pgdata: Path):
    """One process at a time creates or starts the embedded server of a home. pgserver guards itself with a
    thread lock only: processes started together on a new machine (test workers, a crawl beside a command) ran
    initdb on one folder at once and, as root, each added the system user it runs PostgreSQL as (one user id
    lost, the server unable to start)."""
    try:
        import fcntl
    except ImportError:  # no advisory file locks here: as pgserver alone
        yield
        return
    with open(pgdata.parent / ".pgdata.lock", "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def database_url() -> str:
    return os.environ.get("GIGFLOW_DATABASE_URL") or embedded_server_url()


def _env_seconds(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name) or default)
    except ValueError:
        raise DatabaseUnavailable(f"{name}={os.environ[name]!r} is not a number of seconds; fix or unset it")


def connect_timeout() -> int:
    """Seconds one connection attempt may take (GIGFLOW_CONNECT_TIMEOUT, default 3): a server that is down or a
    host that drops packets fails this fast instead of the operating system's minutes."""
    return max(1, round(_env_seconds("GIGFLOW_CONNECT_TIMEOUT", 3)))


class DatabaseUnavailable(RuntimeError):
    """The database cannot be reached (or its URL is wrong). Its message is one line for the user: the cause and
    what to do next; commands print it without a traceback (gigflow.commands)."""


def url_origin(url: str) -> str:
    """Where a URL came from, as a user set it: the DATABASE_URL setting, the environment, or neither."""
    if url in _setting_urls:
        return "setting DATABASE_URL"
    if os.environ.get("GIGFLOW_DATABASE_URL") == url:
        return "GIGFLOW_DATABASE_URL"
    return "the embedded server"


def describe_url(url: str) -> str:
    """The server a URL names, without its password, and where the URL came from."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return f"{url_origin(url)} (which is not a valid PostgreSQL URL)"
    where = f"{parts.get('host') or 'localhost'}:{parts.get('port') or 5432}/{parts.get('dbname') or ''}"
    return f"{where} ({url_origin(url)})"


def unavailable(url: str, cause: BaseException | str) -> DatabaseUnavailable:
    first_line = " ".join(str(cause).split("\n")[0].split()) or type(cause).__name__
    origin = url_origin(url)
    if origin == "setting DATABASE_URL":
        step = "start PostgreSQL there or give DATABASE_URL a running server's URL (-s DATABASE_URL=... or settings)"
    elif origin == "GIGFLOW_DATABASE_URL":
        step = ("start PostgreSQL there or point GIGFLOW_DATABASE_URL at a running server "
                "(unset it for the embedded one)")
    else:
        step = "check the server, or run `make clean-db` if the embedded server's data folder is damaged"
    return DatabaseUnavailable(f"cannot reach the database at {describe_url(url)}: {first_line}; {step}")


def connect(url: str, **kwargs) -> psycopg.Connection:
    """A single connection with the short connect timeout; a failure is DatabaseUnavailable (one line)."""
    try:
        return psycopg.connect(url, connect_timeout=connect_timeout(), **kwargs)
    except psycopg.OperationalError as exc:
        raise unavailable(url, exc) from exc
    except psycopg.ProgrammingError as exc:  # a malformed URL
        raise unavailable(url, exc) from exc


def wait_seconds() -> float:
    """How long a process starting up retries a database that cannot be reached (GIGFLOW_DATABASE_WAIT, default
    5 s, with back-off) before it fails with one line."""
    return _env_seconds("GIGFLOW_DATABASE_WAIT", 5)


def open_pool(url: str | None = None, *, migrate: bool = True, home: bool | None = None) -> ConnectionPool:
    """A new pool on ``url`` (default: GIGFLOW_DATABASE_URL or the embedded server), connected, and migrated
    unless ``migrate`` is False; its caller owns it and closes it. A database that cannot be reached within
    GIGFLOW_DATABASE_WAIT seconds raises DatabaseUnavailable. ``home``: the home's own database (its Markdown
    files move in with its schema); by default GIGFLOW_DATABASE_URL's or the embedded server's is, any other URL
    (a scratch or restore target) is not. The GIGFLOW_* connection variables are read now, when it is opened."""
    home_database = (not url or url == os.environ.get("GIGFLOW_DATABASE_URL")) if home is None else home
    url = url or database_url()
    try:
        conninfo_to_dict(url)
    except psycopg.ProgrammingError as exc:
        raise unavailable(url, exc) from None
    pool = ConnectionPool(url, min_size=1, max_size=int(os.environ.get("GIGFLOW_POOL_SIZE", "4")),
                          # seconds a caller waits for a connection: short, so that a vanished database
                          # is noticed (and its outage counted) instead of blocking the caller
                          timeout=_env_seconds("GIGFLOW_POOL_TIMEOUT", 5),
                          kwargs={"row_factory": dict_row, "connect_timeout": connect_timeout()},
                          open=False, name="gigflow",
                          # a lost database is retried with the pool's back-off for this long
                          reconnect_timeout=_env_seconds("GIGFLOW_RECONNECT_SECONDS", 3600),
                          # check: replace connections a database restart has closed
                          check=ConnectionPool.check_connection)
    started = time.monotonic()
    pool_logger = logging.getLogger("psycopg.pool")
    level = pool_logger.level
    pool_logger.setLevel(logging.ERROR)  # each failed attempt is not news: one line says it all below
    try:
        pool.open(wait=True, timeout=max(0.5, wait_seconds()))
    except PoolTimeout:
        pool.close(timeout=0)
        # the pool's workers keep their last error to themselves: one direct attempt names the cause
        try:
            psycopg.connect(url, connect_timeout=connect_timeout()).close()
            cause = f"no connection within {time.monotonic() - started:.0f} s"
        except psycopg.Error as exc:
            cause = exc
        raise unavailable(url, cause) from None
    finally:
        pool_logger.setLevel(level)
    if migrate:
        try:
            from gigflow.db.migrate import upgrade

            upgrade(pool)
            if home_database:  # the home's own database: its Markdown files move with its schema
                migrate_markdown_files(pool, configured_markdown_dir())
        except BaseException:
            pool.close()
            raise
    return pool


def get_pool(url: str | None = None, *, migrate: bool = True, home: bool | None = None) -> ConnectionPool:
    """One shared pool per URL per process (open_pool's, opened on first use and kept until close_pools): what
    a crawl's components share (pool_from_crawler) and long-running servers and workers keep. Code that owns a
    piece of work from start to end (a command: GigflowCommand.pool) opens its own with open_pool and closes it."""
    home = (not url or url == os.environ.get("GIGFLOW_DATABASE_URL")) if home is None else home
    url = url or database_url()
    with _lock:
        pool = _pools.get(url)
        if pool is None:
            pool = _pools[url] = open_pool(url, migrate=migrate, home=home)
    return pool


def url_from_settings(settings) -> str:
    """The URL of the database Scrapy settings name: DATABASE_URL, else (None, the default) GIGFLOW_DATABASE_URL
    or the embedded server (started if need be). Workers, backups and `scrapy db url` use it."""
    url = settings.get("DATABASE_URL") or None
    if url is None:
        return database_url()
    _setting_urls.add(url)
    return url


def pool_from_settings(settings, *, migrate: bool = True) -> ConnectionPool:
    """The shared pool (get_pool) of the database Scrapy settings name (url_from_settings): the home's own
    database. A crawl's components take it in ``from_crawler`` and keep it."""
    return get_pool(url_from_settings(settings), migrate=migrate, home=True)


def open_pool_from_settings(settings, *, migrate: bool = True) -> ConnectionPool:
    """A new pool (open_pool) on the database Scrapy settings name, the home's own: for an owner that closes it
    when its work is done (GigflowCommand.pool)."""
    return open_pool(url_from_settings(settings), migrate=migrate, home=True)


def pool_from_crawler(crawler) -> ConnectionPool:
    return pool_from_settings(crawler.settings)


def close_pools() -> None:
    with _lock:
        for pool in _pools.values():
            pool.close()
        _pools.clear()


class NoDatabaseError(LookupError):
    """No gigflow database where one was looked for; the message says where and what to do."""


def existing_embedded_server_url(home: Path) -> str:
    """The URL of the embedded PostgreSQL under ``home`` (a GIGFLOW_HOME: ``home/pgdata``), started if it is
    stopped; NoDatabaseError when there is none there. Never creates one: a library call must not leave a new
    database behind in whatever folder it was run from."""
    import pgserver

    pgdata = Path(home).expanduser().resolve() / "pgdata"
    if not (pgdata / "PG_VERSION").is_file():
        raise NoDatabaseError(f"no gigflow database under {pgdata.parent} (create one there with `GIGFLOW_HOME="
                              f"{pgdata.parent} scrapy db upgrade` in the gigflow project, or pass database_url=...)")
    pgserver_logger = logging.getLogger("pgserver")
    if pgserver_logger.level == logging.NOTSET:
        pgserver_logger.setLevel(logging.WARNING)
    with _one_starter(pgdata):
        return pgserver.get_server(pgdata, cleanup_mode=None).get_uri()
