"""The DATABASE_URL setting names the crawl's database: every component of the run (context, limiter, robots
cache, crawl lock, pipeline, finalizer, extensions) takes its pool from it, none from the environment."""

from scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import TEST_CRAWL_SETTINGS, crawl_in_process, last_run

# Nothing listens on port 1: a component that still read GIGFLOW_DATABASE_URL would fail the crawl.
NOWHERE = "postgresql://postgres@127.0.0.1:1/nowhere"


def test_a_crawl_uses_the_database_its_settings_name(pool, database_url):
    with ScriptedServer(site("/ds", jobs=2)) as server:
        import_sources(pool, parse_sources({"sources": [source("ds", server.url, "/ds")]}))
        result = crawl_in_process("href", "ds", {**TEST_CRAWL_SETTINGS, "DATABASE_URL": database_url},
                                  env={"GIGFLOW_DATABASE_URL": NOWHERE, "GIGFLOW_DATABASE_WAIT": "1"})
    assert result.returncode == 0, result.stderr[-4000:]
    assert last_run(pool)["outcome"] == "finished"
    with pool.connection() as conn:
        titles = {row["title"] for row in conn.execute("SELECT title FROM jobs WHERE source_id = 'ds'")}
        cached = conn.execute("SELECT count(*) AS n FROM robots_cache WHERE origin = %s", (server.url,)).fetchone()
    assert titles == {"Engineer 0", "Engineer 1"}
    assert cached["n"] == 1
