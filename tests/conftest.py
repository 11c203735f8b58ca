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
    _without_autovacuum(url)
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


def _without_autovacuum(url: str) -> None:
    """Migrate the test database and switch autovacuum off on its tables. Its ANALYZE ran whenever the server
    chose and left column statistics that TRUNCATE keeps, so a later test's query plans depended on which tests
    had run before it on that worker and when (test_listing_queries_read_through_indexes failed now and then)."""
    from gigflow.db import get_pool

    with get_pool(url).connection() as conn:
        for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall():
            conn.execute(f'ALTER TABLE "{row["tablename"]}" SET (autovacuum_enabled = off, '
                         "toast.autovacuum_enabled = off)")


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


# The longest tests (about 5 s and more on a 2-core machine) by node id prefix, longest first: collected first, so
# pytest-xdist (`make test`: --dist loadgroup, one test at a time to whichever worker is free) starts them before
# the short ones and no worker ends the run alone on a long test.
LONG_FIRST = (
    "tests/test_scrapyd_deploy.py::",
    "tests/test_ui_browser.py::",
    "tests/test_getting_started.py::",
    "tests/test_politeness_shared_limiter.py::test_four_processes",
    "tests/test_source_health.py::test_each_drift_detector",
    "tests/test_click_politeness.py::",
    "tests/test_prepare_malformed.py::test_a_fifty_megabyte_page",
    "tests/test_run_integrity.py::test_a_crawl_whose_database_vanished",
    "tests/test_noise_corpus.py::test_with_a_model_configured",
    "tests/test_run_integrity.py::test_a_killed_crawl",
    "tests/test_spider_click.py::test_click_crawl_captures_details",
    "tests/test_noise_worker_resilience.py::",
    "tests/test_db_migrations.py::test_concurrent_first_use",
    "tests/test_run_integrity.py::test_a_second_crawl",
    "tests/test_politeness_backoff.py::test_a_killed_crawl",
    "tests/test_politeness_backoff.py::test_a_429_storm",
    "tests/test_spider_click.py::test_click_cap",
    "tests/test_prepare_corpus_facts.py::test_every_fact_is_kept",
    "tests/test_politeness_schedule.py::test_the_periodic_worker",
    "tests/test_robots_shared_cache.py::test_disallowed_path",
    "tests/test_politeness_transport.py::test_a_request_re_sent",
    "tests/test_run_integrity.py::test_one_bad_message",
    "tests/test_embedded_server_logs.py::",
)


# Modules whose tests share module-scoped fixtures (test_ui_browser: a crawled database, the app, a browser) run
# on one worker, together: set up once, and no other test's `pool` empties their tables meanwhile.
ONE_WORKER = ("tests/test_ui_browser.py",)


def pytest_xdist_make_scheduler(config, log):
    """`--dist loadgroup` that keeps each xdist_group on one worker. pytest-xdist (3.8) names a group by appending
    `@group` to the worker's item.nodeid, which pytest 9.2 no longer lets it change: every test became its own
    group and test_ui_browser's module fixtures (a crawl, the app, chromium) were set up once per worker. Here
    the controller groups by the test's own node id instead (the ONE_WORKER modules); any other test stays alone."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class OneWorkerModules(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::")[0]
            return module if module in ONE_WORKER else super()._split_scope(nodeid)

    return OneWorkerModules(config, log)


def _long_first(item) -> int:
    return next((rank for rank, prefix in enumerate(LONG_FIRST) if item.nodeid.startswith(prefix)), len(LONG_FIRST))


E2E_HELPERS = ("run_scrapy", "scrapy_command", "crawl_sequence")  # a module that imports one starts scrapy processes


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    """Mark every test that uses the database (`-m db`) and every test of a module that starts `scrapy`
    processes (`-m e2e`): new interpreters (run_scrapy), commands run through Scrapy's entry point in the test
    process or, when they crawl, in a forked child (scrapy_command), or crawls in a forked child (crawl_sequence); `make test-fast` runs the rest: the pure tests. The LONG_FIRST tests go
    first (a stable sort: every worker collects the same order)."""
    items.sort(key=_long_first)
    for item in items:
        if item.nodeid.startswith(ONE_WORKER):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    for item in items:
        if {"admin_database_url", "database_url", "pool"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.db)
        module = getattr(item, "module", None)
        if module is not None and any(hasattr(module, name) for name in E2E_HELPERS):
            item.add_marker(pytest.mark.e2e)
