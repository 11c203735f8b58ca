"""Shared fixtures: a disposable PostgreSQL database (name contains `_test_`), fixture HTTP servers, crawls."""

from __future__ import annotations

import os
import secrets
import psycopg
import pytest
from psycopg.conninfo import make_conninfo

from helpers import FIXTURES


@pytest.fixture(scope="session")
def admin_database_url():
    """The server the tests may create databases on: GIGFLOW_TEST_DATABASE_URL, else the embedded server."""
    from gigflow.db.connection import embedded_server_url

    return os.environ.get("GIGFLOW_TEST_DATABASE_URL") or embedded_server_url()


@pytest.fixture(scope="session")
def database_url(admin_database_url):
    """Create gigflow_test_<random> on the admin server and drop it after the session."""
    admin_url = admin_database_url
    name = f"gigflow_test_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo(admin_url, dbname=name)
    previous = os.environ.get("GIGFLOW_DATABASE_URL")
    os.environ["GIGFLOW_DATABASE_URL"] = url
    yield url
    from gigflow.db import close_pools

    close_pools()
    if previous is None:
        os.environ.pop("GIGFLOW_DATABASE_URL", None)
    else:
        os.environ["GIGFLOW_DATABASE_URL"] = previous
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pool(database_url):
    """A migrated pool on the test database, emptied before each test."""
    from gigflow.db import get_pool

    pool = get_pool(database_url)
    with pool.connection() as conn:
        tables = [r["tablename"] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'")]
        if tables:
            conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " RESTART IDENTITY CASCADE")
    return pool


@pytest.fixture
def fixture_server():
    """fixtures/sites served on an ephemeral 127.0.0.1 port."""
    from gigflow.devserver import FixtureServer

    with FixtureServer(FIXTURES / "sites") as server:
        yield server


E2E_HELPERS = ("run_scrapy", "scrapy_command", "crawl_sequence")  # a module that imports one starts scrapy processes


def pytest_collection_modifyitems(config, items):
    """Mark every test that uses the database (`-m db`) and every test of a module that starts `scrapy`
    processes (`-m e2e`): new interpreters (run_scrapy) or forked children running a command or crawls
    (scrapy_command, crawl_sequence); `make test-fast` runs the rest: the pure tests."""
    for item in items:
        if {"database_url", "pool"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.db)
        module = getattr(item, "module", None)
        if module is not None and any(hasattr(module, name) for name in E2E_HELPERS):
            item.add_marker(pytest.mark.e2e)
