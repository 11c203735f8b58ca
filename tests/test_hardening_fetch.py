"""Fetch hardening end to end: DNS rebinding is a policy block that quarantines the source (never retried),
credentials never follow a redirect to another host, nothing that can run code listens in a crawl process,
and userinfo never reaches a log line."""

import json
import logging

import pytest

from scripted_server import Reply, ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import TEST_CRAWL_SETTINGS, crawl, crawl_in_process, last_run


def test_dns_rebinding_at_connection_time_quarantines_the_source_without_retries(pool):
    with ScriptedServer(site("/rb", jobs=1)) as server:
        origin = f"http://jobs.rebind.test:{server.port}"
        import_sources(pool, parse_sources({"sources": [source("rebind", origin, "/rb")]}))
        result = crawl_in_process("href", "rebind", {
            **TEST_CRAWL_SETTINGS, "TWISTED_DNS_RESOLVER": "tests.rebinding_resolver.RebindingResolver",
            "FETCH_RESOLVER_OVERRIDES": '{"jobs.rebind.test": "127.0.0.1"}', "RETRY_TIMES": 5}, timeout=90)
    assert result.returncode == 4, result.stderr[-3000:]  # the whole listing was refused: the crawl read nothing
    assert server.hits == []  # the rebound address was never connected to
    with pool.connection() as conn:
        row = conn.execute("SELECT status, status_reason FROM sources WHERE id = 'rebind'").fetchone()
    assert row["status"] == "quarantined"
    assert "refused: host jobs.rebind.test resolves to a private address 10.0.0.7" in row["status_reason"]
    run = last_run(pool)
    assert run["outcome"].startswith("incomplete")
    assert not run["stats"].get("retry/count") and not run["stats"].get("gigflow/politeness/backoffs")


def test_credentials_do_not_follow_a_redirect_to_another_host(pool):
    def route(path, headers):
        if path == "/x/jobs/0.html":
            return Reply(status=302, headers={"Location": f"http://other.test:{port}/x/jobs/1.html"})
        return jobs(path, headers)

    jobs = site("/x", jobs=1)
    with ScriptedServer(route) as server:
        port = server.port
        import_sources(pool, parse_sources({"sources": [source("hdr", server.url, "/x")]}))
        secrets = {"Authorization": "Bearer s3cret-token", "Cookie": "session=s3cret-cookie"}
        result = crawl("href", "hdr", f"DEFAULT_REQUEST_HEADERS={json.dumps(secrets)}",
                       'FETCH_RESOLVER_OVERRIDES={"other.test": "127.0.0.1"}')
    # nothing in the crawl process listened for commands (Scrapy's remote control and telnet console)
    assert "listening" not in result.stderr.lower(), result.stderr[-2000:]
    first = [h for h in server.hits if h.path == "/x/jobs/0.html"]
    moved = [h for h in server.hits if h.path == "/x/jobs/1.html"]
    assert first and moved and moved[0].host.startswith("other.test")
    assert first[0].headers.get("Authorization") == "Bearer s3cret-token"  # the configured host gets them
    assert "Authorization" not in moved[0].headers and "Cookie" not in moved[0].headers
    assert "Proxy-Authorization" not in moved[0].headers


def test_no_remote_control_extension_is_enabled():
    from scrapy.utils.conf import build_component_list
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    enabled = build_component_list(settings.getwithbase("EXTENSIONS"))
    assert "scrapy.extensions.corestats.CoreStats" in enabled  # the list is real
    for name in ("telnet.TelnetConsole", "remote_control.RemoteControl", "debug.Debugger"):
        assert f"scrapy.extensions.{name}" not in enabled
    assert not settings.getbool("TELNETCONSOLE_ENABLED") and not settings.getbool("REMOTE_CONTROL_ENABLED")
    assert "gigflow.safety.extension.RedactCredentials" in enabled


def test_userinfo_is_redacted_in_every_log_line(caplog):
    from gigflow.safety.extension import CredentialsFilter

    record = logging.LogRecord("scrapy.core.engine", logging.INFO, __file__, 1, "Crawled (200) <GET %s> (referer: %s)",
                               ("http://user:hunter2@jobs.example.org/a", "https://a:b@c.example/"), None)
    assert CredentialsFilter().filter(record)
    assert record.getMessage() == "Crawled (200) <GET http://***@jobs.example.org/a> (referer: https://***@c.example/)"


@pytest.mark.parametrize("url", ["http://admin:hunter2@jobs.example.org/", "https://a%40b:p%3Ass@x.example/p"])
def test_credentials_in_a_source_are_refused_at_import_and_never_echoed(url):
    from gigflow.sources.loader import SourceFileError

    with pytest.raises(SourceFileError) as info:
        parse_sources({"sources": [{"id": "c", "company": "C", "canonical_url": url,
                                    "strategies": [{"type": "feed", "feed_urls": [url]}]}]}, "f.yaml")
    message = str(info.value)
    assert "canonical_url: credentials in the URL are refused" in message
    assert "strategies[0].feed_urls" in message and "hunter2" not in message and "p%3Ass" not in message


def test_credentials_reach_no_other_origin_not_even_its_robots_txt(pool):
    """The listing on the source's origin links one job to a second origin (another port of 127.0.0.1): that
    origin's robots.txt and its job page are requested without the configured credentials."""
    jobs = site("/x", jobs=1)

    def listing(path, headers):
        if path == "/x/":
            other_job = f"{other.url}/x/jobs/1.html"
            return Reply(body=(f'<ul><li class="job-card"><a href="/x/jobs/0.html">Job 0</a></li>'
                               f'<li class="job-card"><a href="{other_job}">Job 1</a></li></ul>').encode())
        return jobs(path, headers)

    with ScriptedServer(jobs) as other, ScriptedServer(listing) as server:
        import_sources(pool, parse_sources({"sources": [source("scoped", server.url, "/x")]}))
        secrets = {"Authorization": "Bearer s3cret-token", "Cookie": "session=s3cret-cookie",
                   "Proxy-Authorization": "Basic cHJveHk6cHc="}
        crawl("href", "scoped", f"DEFAULT_REQUEST_HEADERS={json.dumps(secrets)}")
    own = [h for h in server.hits if h.path == "/x/jobs/0.html"]
    assert own and own[0].headers.get("Authorization") == "Bearer s3cret-token"  # the source's origin gets them
    robots = [h for h in other.hits if h.path == "/robots.txt"]
    job = [h for h in other.hits if h.path == "/x/jobs/1.html"]
    assert robots and job, other.hits
    for hit in robots + job:
        assert not {"Authorization", "Cookie", "Proxy-Authorization"} & set(hit.headers), hit
