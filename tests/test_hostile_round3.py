"""Hostile input, round 3 (issue #30): each test names the finding it guards."""

from __future__ import annotations

import json

import pytest

from helpers import TEST_CRAWL_SETTINGS, crawl, last_run, scrapy_command
from scripted_server import Reply, ScriptedServer, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources

# JSON-LD as a hostile page writes it: bare NaN/Infinity and 1e999 (Python's json reads them as floats), and a lone
# surrogate escape (a str Python holds but UTF-8 and PostgreSQL cannot).
HOSTILE_POSTINGS = {
    "0": '"baseSalary": {"@type": "MonetaryAmount", "currency": "EUR", "value": {"minValue": NaN, "maxValue": 5000}}',
    "1": '"baseSalary": {"@type": "MonetaryAmount", "currency": "EUR", "value": {"minValue": Infinity}}',
    "2": '"baseSalary": {"@type": "MonetaryAmount", "currency": "EUR", "value": {"minValue": 1e999}}',
    "3": '"description": "Great \\ud800 team", "employmentType": "FULL_TIME \\ud800", "title": "Engineer 3 \\udfff"',
}


def _hostile_site(path: str, headers: dict) -> Reply:
    if path == "/robots.txt":
        return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"})
    if path == "/h/":
        cards = "".join(f'<li class="job-card"><a href="/h/jobs/{i}.html">Job {i}</a></li>' for i in HOSTILE_POSTINGS)
        return Reply(body=f"<html><body><ul>{cards}</ul></body></html>".encode())
    number = path.rsplit("/", 1)[-1].split(".")[0]
    if path.startswith("/h/jobs/") and number in HOSTILE_POSTINGS:
        posting = ('{"@context": "https://schema.org", "@type": "JobPosting", "title": "Engineer %s", '
                   '"hiringOrganization": {"@type": "Organization", "name": "Acme"}, %s}'
                   % (number, HOSTILE_POSTINGS[number]))
        return Reply(body=(f'<html><head><title>Engineer {number}</title><script type="application/ld+json">{posting}'
                           f"</script></head><body><h1>Engineer {number}</h1><p>Work.</p></body></html>").encode())
    return Reply(status=404, body=b"not found")


def test_hostile_jsonld_numbers_and_strings_cost_a_field_not_the_job_nor_the_log(pool):
    """#30 finding 5: NaN, Infinity, 1e999 and a lone \\ud800 raised in storage (run incomplete:store_failed, a
    ~340-line traceback holding the item). Now each bad field is dropped with a warning and every job is kept."""
    with ScriptedServer(_hostile_site) as server:
        import_sources(pool, parse_sources({"sources": [source("hostile-ld", server.url, "/h")]}))
        result = crawl("href", "hostile-ld", "LOG_LEVEL=DEBUG")
    run = last_run(pool)
    assert run["outcome"] == "finished", (run["outcome"], result.stderr[-3000:])
    with pool.connection() as conn:
        rows = conn.execute("SELECT title, fields FROM jobs WHERE source_id = 'hostile-ld' ORDER BY title").fetchall()
    assert len(rows) == 4, rows
    salaries = {row["title"]: (row["fields"].get("salary") or {}) for row in rows}
    assert salaries["Engineer 0"].get("max") == 5000 and salaries["Engineer 0"].get("min") is None
    assert salaries["Engineer 1"].get("min") is None and salaries["Engineer 2"].get("min") is None
    third = next(row for row in rows if row["title"].startswith("Engineer 3"))
    assert "\ufffd" in third["title"] and "employment_type" not in third["fields"]
    assert "Traceback" not in result.stderr
    assert "Great" not in result.stderr and "<html" not in result.stderr  # no item bodies, even at DEBUG
    assert "dropped: it held invalid Unicode" in result.stderr


def test_an_href_listing_follows_at_most_the_job_link_cap(pool):
    """#30 finding 6: an href listing with 100,000 job links fetched on without limit. Now HREF_MAX_JOB_URLS
    (like SITEMAP_MAX_JOB_URLS) bounds the fetches and makes the run incomplete, so nothing is marked gone."""
    from scripted_server import site

    jobs = site("/cap", jobs=0)

    def listing(path, headers):
        if path == "/cap/":
            cards = "".join(f'<li class="job-card"><a href="/cap/jobs/{i}.html">Job {i}</a></li>' for i in range(400))
            return Reply(body=f"<ul>{cards}</ul>".encode())
        return jobs(path, headers) if not path.startswith("/cap/jobs/") else site("/cap", jobs=1)(path, headers)

    with ScriptedServer(listing) as server:
        import_sources(pool, parse_sources({"sources": [source("capped", server.url, "/cap")]}))
        crawl("href", "capped", "HREF_MAX_JOB_URLS=5")
    fetched = [hit for hit in server.hits if hit.path.startswith("/cap/jobs/")]
    assert len(fetched) == 5
    assert last_run(pool)["outcome"] == "incomplete:cap_reached"


ALIAS_BOMB = "\n".join(
    [f'l0: &l0 [{", ".join(["lol"] * 9)}]']
    + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)] + ["sources: [*l8]"]) + "\n"


@pytest.mark.timeout(30)
def test_source_files_are_read_bounded_and_alias_bombs_refused(tmp_path):
    """#30 finding 6: a 900-byte YAML alias bomb took 104 s and `sources import /dev/zero` reached 8 GB."""

    bomb = tmp_path / "bomb.yaml"
    bomb.write_text(ALIAS_BOMB)
    assert len(ALIAS_BOMB) < 900
    result = scrapy_command("sources", "import", str(bomb), timeout=25)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "anchors and aliases expand to more than SOURCES_FILE_MAX_NODES" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    result = scrapy_command("sources", "import", "/dev/zero", timeout=25)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "larger than SOURCES_FILE_MAX_BYTES" in result.stderr
    # anchors themselves are fine
    ok = tmp_path / "ok.yaml"
    ok.write_text("defaults: &href {type: href, listing_urls: ['https://a.example/jobs']}\n"
                  "sources:\n  - {id: a, company: A, canonical_url: 'https://a.example/', strategies: [*href]}\n")
    from gigflow.sources.loader import load_source_file

    assert load_source_file(ok)[0].strategy("href").listing_urls == ["https://a.example/jobs"]


@pytest.mark.parametrize("target", ["javascript:alert(1)", "data:text/html,<script>x</script>", "vbscript:x"])
def test_a_meta_refresh_to_a_script_url_does_not_fail_the_run(pool, target):
    """#30 finding 7: a meta refresh to javascript: failed the whole run. The page is read as it is."""
    from scripted_server import site

    jobs = site("/mr", jobs=2)

    def route(path, headers):
        reply = jobs(path, headers)
        if path == "/mr/jobs/0.html":
            reply.body = reply.body.replace(b"<head>", f'<head><meta http-equiv="refresh" content="0; url={target}">'
                                            .encode(), 1)
        return reply

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources({"sources": [source("refresh", server.url, "/mr")]}))
        crawl("href", "refresh")
    assert last_run(pool)["outcome"] == "finished"
    with pool.connection() as conn:
        titles = {r["title"] for r in conn.execute("SELECT title FROM jobs WHERE source_id = 'refresh'")}
    assert titles == {"Engineer 0", "Engineer 1"}


@pytest.mark.parametrize("host", ["0x7f000001", "2130706433", "127.1", "0177.0.0.1", "0x7f.0.0.1", "127.0.0.%31",
                                  "\uff11\uff12\uff17.\uff10.\uff10.\uff11", "127.0.0.1\u3002",
                                  "127\u30020\u30020\u30021",
                                  "LOCALHOST\u3002"])
def test_stored_urls_read_hosts_as_browsers_do(host):
    """#30 finding 7: the stored-URL check (no DNS) passed these loopback forms; browsers read them as 127.0.0.1."""
    from gigflow.adapters.types import ExtractedJob, ExtractionResult
    from gigflow.adapters.url_policy import apply_url_policy
    from gigflow.safety.guard import FetchGuard, UnsafeURL

    with pytest.raises(UnsafeURL, match="loopback"):
        FetchGuard().check_static(f"http://{host}/jobs/1")
    result = ExtractionResult(parser_key="t", parser_version="1", confidence=0.9, jobs=[
        ExtractedJob(title="Engineer", url="https://jobs.example.org/1", apply_url=f"http://{host}/apply")])
    [job] = apply_url_policy(result, FetchGuard()).jobs
    assert job.apply_url is None and job.url == "https://jobs.example.org/1"


def test_deny_lists_match_a_name_in_either_form():
    """#30 finding 7: a deny-list entry bücher.test did not block xn--bcher-kva.test (IDNA on both sides now)."""
    from gigflow.safety.guard import FetchGuard, UnsafeURL

    for entry, url in [("bücher.test", "http://xn--bcher-kva.test/"), ("xn--bcher-kva.test", "http://bücher.test/"),
                       ("bücher.test", "http://jobs.BÜCHER.test/"), ("bücher.test", "http://bücher.test\u3002/")]:
        with pytest.raises(UnsafeURL, match="denied"):
            FetchGuard(denied_hosts=[entry]).check_static(url)
    FetchGuard(denied_hosts=["bücher.test"]).check_static("http://buecher.test/")  # another name passes


HOSTILE_TITLES = {"0": "-2+3+cmd|' /C calc'!A0", "1": "=HYPERLINK(\"http://evil.example\")",
                  "2": "Engineer \u202egnp.exe", "3": "\x1b[31mRed\x1b[0m engineer"}


def _titled_site(path: str, headers: dict) -> Reply:
    if path == "/t/":
        cards = "".join(f'<li class="job-card"><a href="/t/jobs/{i}.html">Job {i}</a></li>' for i in HOSTILE_TITLES)
        return Reply(body=f"<ul>{cards}</ul>".encode())
    number = path.rsplit("/", 1)[-1].split(".")[0]
    if path.startswith("/t/jobs/") and number in HOSTILE_TITLES:
        posting = json.dumps({"@context": "https://schema.org", "@type": "JobPosting", "title": HOSTILE_TITLES[number],
                              "hiringOrganization": {"@type": "Organization", "name": "@SUM(A1:A9)"}})
        return Reply(body=f'<html><head><title>{json.loads(json.dumps(HOSTILE_TITLES[number]))}</title>'
                          f'<script type="application/ld+json">{posting}</script></head>'
                          '<body><p>Work.</p></body></html>'
                     .encode())
    return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"}) if path == "/robots.txt" \
        else Reply(status=404, body=b"")


def test_exports_neutralise_formulas_and_display_controls_everywhere(pool, tmp_path):
    """#30 finding 7: CSV export missed a leading '-', `scrapy crawl ... -O items.csv` escaped nothing, and bidi
    overrides and terminal escapes reached the CLI table and the exports."""
    import csv

    from gigflow import api
    from scrapy.settings import Settings

    from gigflow import settings as project

    def display_free(text):
        assert "\u202e" not in text and "\x1b" not in text, text

    feed, lines = tmp_path / "items.csv", tmp_path / "items.jsonl"
    with ScriptedServer(_titled_site) as server:
        import_sources(pool, parse_sources({"sources": [source("titles", server.url, "/t")]}))
        crawl("href", "titles", "FEEDS=" + json.dumps({str(feed): {"format": "csv"}, str(lines): {"format": "jsonl"}}))
    display_free(lines.read_text(encoding="utf-8"))
    assert "Engineer \u202egnp.exe" in {json.loads(line)["title"] for line in lines.read_text().splitlines()}
    settings = Settings()
    settings.setmodule(project)
    api.resolve(settings=settings)

    def formula_free(cells):
        for cell in cells:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell

    with feed.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 4
    for row in rows:
        formula_free(row.values())
        display_free("".join(row.values()))
    assert any(row["title"] == "'-2+3+cmd|' /C calc'!A0" for row in rows)

    exported = scrapy_command("jobs", "--format", "csv", "--source", "titles")
    assert exported.returncode == 0, exported.stderr
    rows = list(csv.DictReader(exported.stdout.splitlines()))
    assert {row["title"] for row in rows} >= {"'-2+3+cmd|' /C calc'!A0", "'=HYPERLINK(\"http://evil.example\")"}
    assert {row["employer"] for row in rows} == {"'@SUM(A1:A9)"}
    for row in rows:
        formula_free(row.values())
        display_free("".join(row.values()))
    for fmt in ("table", "jsonl"):
        shown = scrapy_command("jobs", "--format", fmt, "--source", "titles")
        assert shown.returncode == 0, shown.stderr
        display_free(shown.stdout)
    jsonl = [json.loads(line) for line in scrapy_command("jobs", "--format", "jsonl", "--source", "titles").stdout
             .splitlines()]
    assert "Engineer \u202egnp.exe" in {row["title"] for row in jsonl}  # JSON escapes it; the data is intact


@pytest.mark.parametrize("setting, named", [
    ("POLITENESS_MIN_INTERVAL=abc", "POLITENESS_MIN_INTERVAL"),
    ('POLITENESS_DOMAIN_POLICIES={"a.example": {"interval": "soon"}}', "POLITENESS_DOMAIN_POLICIES"),
    ("POLITENESS_DOMAIN_POLICIES=[1, 2", "POLITENESS_DOMAIN_POLICIES"),
    ('POLITENESS_DOMAIN_POLICIES={"a.example": 5}', "POLITENESS_DOMAIN_POLICIES"),
])
def test_a_bad_setting_is_one_line_naming_it(pool, setting, named):
    """#30 finding 7: tracebacks for -s POLITENESS_MIN_INTERVAL=abc and a malformed POLITENESS_DOMAIN_POLICIES."""

    import_sources(pool, parse_sources({"sources": [source("settings", "http://127.0.0.1:9", "/s")]}))
    base = [arg for name, value in TEST_CRAWL_SETTINGS.items() for arg in ("-s", f"{name}={value}")]
    result = scrapy_command("crawl", "href", "-a", "source=settings", *base, "-s", setting, timeout=60)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if named in line]
    assert errors, result.stderr[-2000:]


def test_check_links_with_an_id_past_bigint_is_one_line(pool):

    result = scrapy_command("jobs", "check-links", "--id", str(2 ** 63), timeout=60)
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert "--id" in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_schedule_due_never_prints_a_node_password(pool):
    """#30 finding 7: `schedule-due --url http://admin:pw@...` printed the password."""

    import_sources(pool, parse_sources({"sources": [source("due", "http://127.0.0.1:9", "/d")]}))
    result = scrapy_command("schedule-due", "--url", "http://admin:hunter2@127.0.0.1:9/", timeout=60)
    shown = result.stdout + result.stderr
    assert "127.0.0.1:9" in shown, shown  # the node is named ...
    assert "hunter2" not in shown and "admin:" not in shown, shown  # ... without its credentials


def test_credentials_in_page_links_are_stored_nowhere(pool):
    """#30 finding 7: a job link with user:password@ was kept in run_health (and so shown and repaired with)."""
    from scripted_server import site

    jobs = site("/pw", jobs=1)

    def route(path, headers):
        if path == "/pw/":
            return Reply(body=(f'<ul><li class="job-card"><a href="/pw/jobs/0.html">Job 0</a></li><li class="job-card">'
                               f'<a href="http://admin:hunter2@127.0.0.1:{server.port}/pw/jobs/1.html">Job 1</a>'
                               '</li></ul>')
                         .encode())
        return jobs(path, headers)

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources({"sources": [source("userinfo", server.url, "/pw")]}))
        result = crawl("href", "userinfo", "LOG_LEVEL=DEBUG")
    with pool.connection() as conn:
        stored = conn.execute("SELECT h.health::text AS health, r.stats::text AS stats FROM run_health h "
                              "JOIN crawl_runs r ON r.id = h.run_id WHERE h.source_id = 'userinfo'").fetchone()
    assert stored and "127.0.0.1" in stored["health"]
    assert "hunter2" not in stored["health"] and "hunter2" not in stored["stats"]
    assert "hunter2" not in result.stderr + result.stdout


@pytest.mark.parametrize("message, args", [
    ("Overridden settings: %s",
     ({"DEFAULT_REQUEST_HEADERS": {"Authorization": "Bearer s3cret", "Cookie": "s=s3cret"}},)),
    ("request headers: %s", ("Authorization: Basic s3cret\r\nCookie: a=s3cret; b=s3cret\r\n",)),
    ("GET %s 200", ("/?token=s3cret&q=1",)),
    ("connecting to %s", ("postgresql://gigflow:s3cret@db.internal/gigflow",)),
    ("model call failed: %s", ("api_key=s3cret rejected",)),
])
def test_secrets_reach_no_log_line(message, args):
    """#30: secrets redacted from every message and log (the filter redacted only user:password@ before)."""
    import logging

    from gigflow.safety.extension import CredentialsFilter

    record = logging.LogRecord("scrapy.crawler", logging.INFO, __file__, 1, message, args, None)
    assert CredentialsFilter().filter(record)
    shown = record.getMessage()
    assert "s3cret" not in shown and "***" in shown, shown


def test_the_review_app_uses_host_cookies_over_https_and_refuses_cross_site_posts():
    """#30 finding 3: `__Host-` cookies where the scheme allows (no other host or http page can set them), and
    Sec-Fetch-Site / Origin checked on every POST before any route runs."""
    from scrapy.settings import Settings
    from starlette.testclient import TestClient

    from gigflow import settings as project
    from gigflow.ui.server import build

    settings = Settings()
    settings.setmodule(project)
    app, _ = build(settings, "127.0.0.1")
    secure = TestClient(app, base_url="https://127.0.0.1")
    cookie = secure.get("/static/ui.css").headers["set-cookie"]
    assert cookie.startswith("__Host-gigflow_csrf=") and "Secure" in cookie and "Path=/" in cookie
    assert "Domain" not in cookie and "HttpOnly" in cookie
    plain = TestClient(app, base_url="http://127.0.0.1")
    for headers in ({"Sec-Fetch-Site": "same-site"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "http://127.0.0.1:8001"}, {"Origin": "null"}):
        refused = plain.post("/sources/x/quarantine", data={"csrf": "x", "reason": "r"}, headers=headers)
        assert refused.status_code == 403, headers
        assert refused.headers["X-Frame-Options"] == "DENY"
