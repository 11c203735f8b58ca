"""Database connections: GIGFLOW_DATABASE_URL, or an embedded PostgreSQL that starts by itself."""

from __future__ import annotations

import logging
import os
import threading
from pathlib import Path

from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

logger = logging.getLogger(__name__)

_pools: dict[str, ConnectionPool] = {}
_lock = threading.Lock()


def data_dir() -> Path:
    """Where gigflow keeps local state: $GIGFLOW_HOME, else .gigflow beside the project's scrapy.cfg."""
    if os.environ.get("GIGFLOW_HOME"):
        return Path(os.environ["GIGFLOW_HOME"]).resolve()
    from scrapy.utils.conf import closest_scrapy_cfg

    cfg = closest_scrapy_cfg()
    root = Path(cfg).parent if cfg else Path.cwd()
    return root / ".gigflow"


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
    server = pgserver.get_server(pgdata, cleanup_mode=None)
    return server.get_uri()


def database_url() -> str:
    return os.environ.get("GIGFLOW_DATABASE_URL") or embedded_server_url()


def get_pool(url: str | None = None, *, migrate: bool = True) -> ConnectionPool:
    """One pool per URL per process; migrations are applied on first use."""
    url = url or database_url()
    with _lock:
        pool = _pools.get(url)
        if pool is None:
            pool = ConnectionPool(url, min_size=1, max_size=int(os.environ.get("GIGFLOW_POOL_SIZE", "4")),
                                  # seconds a caller waits for a connection (a vanished database fails this fast)
                                  timeout=float(os.environ.get("GIGFLOW_POOL_TIMEOUT", "30")),
                                  kwargs={"row_factory": dict_row}, open=True, name="gigflow",
                                  # check: replace connections a database restart has closed
                                  check=ConnectionPool.check_connection)
            if migrate:
                from gigflow.db.migrate import upgrade

                upgrade(pool)
            _pools[url] = pool
    return pool


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
    return pgserver.get_server(pgdata, cleanup_mode=None).get_uri()
