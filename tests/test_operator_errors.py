"""The operator's day (issue #26): commands that refuse or fail say why and what to do next, in one line, with a
non-zero exit; nothing prints a traceback for a mistake a person can make."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from helpers import import_source, scrapy_command

pytestmark = [pytest.mark.db, pytest.mark.e2e]

CRAWL_SETTINGS = ["-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "POLITENESS_MIN_INTERVAL=0",
                  "-s", "MARKDOWN_DIR=", "-s", "NOISE_REVIEW_ON_FINALIZE=False"]


def href_source(source_id: str, listing: str, status: str | None = "active", **strategy) -> dict:
    entry = {"id": source_id, "company": "Lumen Labs", "canonical_url": listing,
             "strategies": [{"type": "href", "listing_urls": [listing], **strategy}]}
    if status:
        entry["status"] = status
    return entry


def one_line_error(result, *words: str) -> None:
    assert result.returncode != 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and all(w in errors[0] for w in words), result.stderr


def test_an_unknown_strategy_is_named_with_the_known_ones(pool):
    one_line_error(scrapy_command("crawl", "hrefs", "-a", "source=demo"), "'hrefs'", "href", "sitemap")


def test_a_candidate_or_quarantined_source_is_not_crawled_by_hand_without_force(pool, fixture_server):
    import_source(pool, href_source("fresh", f"{fixture_server.url}/demo/index.html", status=None,
                                    card_selector="li.job-card"), fixture_server.url)
    import_source(pool, href_source("held", f"{fixture_server.url}/demo/index.html", status="quarantined",
                                    card_selector="li.job-card"), fixture_server.url)
    one_line_error(scrapy_command("crawl", "href", "-a", "source=fresh", *CRAWL_SETTINGS), "candidate",
                   "sources policy fresh", "--force")
    one_line_error(scrapy_command("crawl", "href", "-a", "source=held", *CRAWL_SETTINGS), "quarantined",
                   "sources restore held", "--force")
    one_line_error(scrapy_command("crawl", "href", "-a", "source=typo", *CRAWL_SETTINGS), "unknown source 'typo'")
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM crawl_runs").fetchone()["n"] == 0  # nothing recorded
    forced = scrapy_command("crawl", "href", "-a", "source=held", "--force", *CRAWL_SETTINGS)
    assert forced.returncode == 0, forced.stderr[-3000:]


def test_a_crawl_whose_whole_listing_was_refused_exits_non_zero(pool, fixture_server):
    # fixtures/sites/robots.txt disallows /demo/apply: the only listing is refused by robots.txt
    import_source(pool, href_source("refused", f"{fixture_server.url}/demo/apply/"), fixture_server.url)
    result = scrapy_command("crawl", "href", "-a", "source=refused", *CRAWL_SETTINGS)
    assert result.returncode == 4, result.stderr[-3000:]
    assert "read nothing" in result.stderr and "scrapy sources show refused" in result.stderr


def test_a_script_rendered_listing_with_no_job_suggests_click(pool, fixture_server):
    import_source(pool, href_source("lumen", f"{fixture_server.url}/click/index.html", card_selector="#jobs li"),
                  fixture_server.url)
    result = scrapy_command("crawl", "href", "-a", "source=lumen", *CRAWL_SETTINGS)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "looks rendered by JavaScript" in result.stderr and "click strategy" in result.stderr
    shown = scrapy_command("sources", "show", "lumen")
    assert "hint: listing" in shown.stdout and "click strategy" in shown.stdout, shown.stdout
    listed = scrapy_command("sources", "list", "--json")
    assert "rendered by JavaScript (use click)" in listed.stdout, listed.stdout  # not "ok"


def add_jobs(pool, count: int) -> None:
    import_source(pool, {"id": "acme", "company": "Acme", "canonical_url": "https://jobs.acme.example/",
                         "strategies": [{"type": "sitemap", "sitemap_urls": ["https://jobs.acme.example/s.xml"]}]},
                  "https://jobs.acme.example")
    long_key = "url:https://jobs.acme.example/" + "careers/" * 12 + "position"
    with pool.connection() as conn:
        conn.execute("INSERT INTO jobs (canonical_key, source_id, title, url, fields, confidence, parser_key, "
                     "parser_version) SELECT %s || '-' || n, 'acme', 'Welder ' || n, "
                     "'https://jobs.acme.example/p/' || n, '{}'::jsonb, 0.9, 'jsonld', '1' "
                     "FROM generate_series(1, %s) n", (long_key, count))
        conn.execute("INSERT INTO job_events (job_id, kind) SELECT id, 'seen' FROM jobs")


def test_jobs_names_an_unknown_source_and_history_takes_the_id_the_table_shows(pool):
    add_jobs(pool, 2)
    one_line_error(scrapy_command("jobs", "--source", "typo"), "unknown source 'typo'", "sources list")
    listed = scrapy_command("jobs", "--source", "acme")
    assert listed.returncode == 0 and listed.stdout.split()[0] == "id", listed.stdout
    job_id = listed.stdout.splitlines()[2].split()[0]
    history = scrapy_command("jobs", "history", job_id)
    assert history.returncode == 0 and "seen" in history.stdout, history.stdout + history.stderr
    assert "careers/" * 12 + "position-" in history.stdout  # the whole key, never cut by the table
    one_line_error(scrapy_command("jobs", "history", "999999"), "no job with id or key '999999'")


def test_empty_sweeps_say_so(pool):
    checked = scrapy_command("jobs", "check-links")
    assert checked.returncode == 0 and checked.stdout.startswith("nothing due"), checked.stdout
    refreshed = scrapy_command("jobs", "refresh")
    assert refreshed.returncode == 0 and refreshed.stdout.startswith("nothing to refresh"), refreshed.stdout


def test_piping_into_head_ends_quietly(pool):
    import os
    import subprocess
    import sys

    from helpers import ROOT

    add_jobs(pool, 3000)  # well over a pipe's buffer
    process = subprocess.Popen([sys.executable, "-m", "scrapy", "jobs", "--limit", "3000"], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ.copy())
    process.stdout.readline()
    process.stdout.close()  # what `head -1` does after its line
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0 and "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_a_command_run_outside_the_checkout_says_where_to_run_it(tmp_path):
    """Scrapy finds gigflow's commands from any folder (an entry point), its settings only beside scrapy.cfg."""
    env = {key: value for key, value in os.environ.items() if key != "SCRAPY_SETTINGS_MODULE"}
    result = subprocess.run([sys.executable, "-m", "scrapy", "sources", "try", "http://127.0.0.1:9/jobs"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    one_line_error(result, "settings are not loaded", "SCRAPY_SETTINGS_MODULE=gigflow.settings")
