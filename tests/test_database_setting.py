"""The DATABASE_URL setting names the crawl's database: every component of the run (context, limiter, robots
cache, crawl lock, pipeline, finalizer, extensions) takes its pool from it, none from the environment; and so does
every command (`-s DATABASE_URL=...`), whose error line names the setting when that database cannot be reached."""

from scripted_server import ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import TEST_CRAWL_SETTINGS, crawl_in_process, last_run, scrapy_command

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


def test_a_command_uses_the_database_its_settings_name(pool, database_url):
    import_sources(pool, parse_sources({"sources": [source("named", "http://127.0.0.1:9", "/jobs")]}))
    dead_environment = {"GIGFLOW_DATABASE_URL": NOWHERE, "GIGFLOW_DATABASE_WAIT": "1"}
    listed = scrapy_command("sources", "list", "-s", f"DATABASE_URL={database_url}", env=dead_environment)
    assert listed.returncode == 0, listed.stderr[-4000:]
    assert "named" in listed.stdout
    shown = scrapy_command("db", "url", "-s", f"DATABASE_URL={database_url}", env=dead_environment)
    assert shown.returncode == 0 and shown.stdout.strip() == database_url, shown.stderr[-4000:]


def test_a_setting_naming_a_dead_database_is_named_in_the_error_line(database_url):
    failed = scrapy_command("sources", "list", "-s", f"DATABASE_URL={NOWHERE}",
                            env={"GIGFLOW_DATABASE_URL": database_url, "GIGFLOW_DATABASE_WAIT": "1"})
    lines = [line for line in (failed.stdout + failed.stderr).splitlines() if line.strip()]
    assert failed.returncode != 0 and len(lines) == 1, lines
    assert lines[0].startswith("error: cannot reach the database at 127.0.0.1:1/nowhere (setting DATABASE_URL)")
    assert "DATABASE_URL=" in lines[0] and "Traceback" not in failed.stderr
