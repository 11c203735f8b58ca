"""The URL guard (SSRF defence) on its own, and end to end: a redirect to a refused host quarantines the source."""

import pytest

from gigflow.safety.guard import FetchGuard, UnsafeURL
from scripted_server import Reply, ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import TEST_CRAWL_SETTINGS, crawl, crawl_in_process


def refusal(guard: FetchGuard, url: str) -> str:
    with pytest.raises(UnsafeURL) as info:
        guard.check(url)
    return info.value.reason


@pytest.mark.parametrize("url, reason", [
    ("file:///etc/passwd", "scheme 'file' is not http or https"),
    ("ftp://example.com/x", "scheme 'ftp' is not http or https"),
    ("http://user:secret@example.com/", "credentials in the URL"),
    ("http://169.254.169.254/latest/meta-data/", "host 169.254.169.254 is a link-local address 169.254.169.254"),
    ("http://127.0.0.2:8080/", "host 127.0.0.2 is a loopback address 127.0.0.2"),
    ("http://[::ffff:10.0.0.1]/", "host ::ffff:10.0.0.1 is a IPv4-mapped private address 10.0.0.1"),
    ("http://[::1]/", "host ::1 is a loopback address ::1"),
    ("http://[fe80::1]/", "host fe80::1 is a link-local address fe80::1"),
    ("http://224.0.0.1/", "host 224.0.0.1 is a multicast address 224.0.0.1"),
    ("http://100.64.0.1/", "host 100.64.0.1 is a non-global address 100.64.0.1"),
    ("http://internal.example.com/", "host internal.example.com resolves to a private address 10.1.2.3"),
    ("http://blocked.example.org/", "host blocked.example.org is denied"),
])
def test_refused_urls_name_their_reason(url, reason):
    guard = FetchGuard(allowed_private_hosts=["127.0.0.1"], denied_hosts=["example.org"],
                       resolver_overrides={"internal.example.com": "10.1.2.3"})
    assert refusal(guard, url) == reason


def test_allow_list_admits_exactly_what_it_names():
    guard = FetchGuard(allowed_private_hosts="127.0.0.1,10.9.0.0/16".split(","),
                       resolver_overrides={"public.example.com": ["93.184.215.14"], "lab.example.com": "10.9.1.1"})
    assert guard.check("http://127.0.0.1:8765/demo/") == ["127.0.0.1"]
    assert guard.check("https://public.example.com/jobs") == ["93.184.215.14"]
    assert guard.check("http://lab.example.com/") == ["10.9.1.1"]
    assert "loopback" in refusal(guard, "http://127.0.0.2/")
    assert "resolves to" in refusal(FetchGuard(resolver_overrides={"mixed.example.com": ["93.184.215.14", "10.0.0.1"]}),
                                    "http://mixed.example.com/")


def test_a_name_resolving_to_a_private_address_through_dns_is_refused():
    # localhost resolves through the system resolver (/etc/hosts) to a loopback address
    assert "resolves to a loopback address" in refusal(FetchGuard(), "http://localhost/")


def redirecting_site(target: str):
    jobs = site("/r", jobs=1)

    def route(path, headers):
        if path == "/r/jobs/0.html":
            return Reply(status=302, headers={"Location": target})
        return jobs(path, headers)

    return route


@pytest.mark.parametrize("target, reason", [
    ("http://127.0.0.2:9/secret", "loopback address 127.0.0.2"),
    ("http://169.254.169.254/latest/meta-data/", "link-local address 169.254.169.254"),
    ("http://[::ffff:10.0.0.1]/", "IPv4-mapped private address 10.0.0.1"),
    ("http://metadata.internal.test/", "resolves to a private address 10.0.0.7"),
])
def test_redirect_to_a_refused_host_quarantines_the_source(pool, target, reason):
    with ScriptedServer(redirecting_site(target)) as server:
        import_sources(pool, parse_sources({"sources": [source("redir", server.url, "/r")]}))
        crawl("href", "redir", 'FETCH_RESOLVER_OVERRIDES={"metadata.internal.test": "10.0.0.7"}')
    with pool.connection() as conn:
        row = conn.execute("SELECT status, status_reason FROM sources WHERE id = 'redir'").fetchone()
        run = conn.execute("SELECT stats, outcome FROM crawl_runs").fetchone()
        versions = conn.execute("SELECT count(*) AS n FROM source_versions").fetchone()["n"]
    assert row["status"] == "quarantined"
    assert row["status_reason"].startswith(f"redirect from {server.url}/r/jobs/0.html to ")
    assert reason in row["status_reason"]
    assert versions == 0 and run["outcome"].startswith("incomplete")
    assert [h.path for h in server.hits].count("/r/jobs/0.html") == 1  # a policy block is never retried


def test_a_quarantined_source_fetches_nothing(pool):
    with ScriptedServer(site("/q", jobs=1)) as server:
        data = source("quar", server.url, "/q")
        data["status"] = "quarantined"
        import_sources(pool, parse_sources({"sources": [data]}))
        result = crawl_in_process("href", "quar", TEST_CRAWL_SETTINGS)
    assert server.hits == []
    assert "is quarantined" in result.stderr
    assert result.returncode == 4 and "read nothing" in result.stderr  # the whole listing was refused


def test_too_many_redirects_stop_at_the_cap(pool):
    jobs = site("/loop", jobs=1)

    def route(path, headers):
        if path.startswith("/loop/jobs/"):
            step = int(path.rsplit("/", 1)[-1].split(".")[0])
            return Reply(status=301, headers={"Location": f"/loop/jobs/{step + 1}.html"})
        return jobs(path, headers)

    with ScriptedServer(route) as server:
        import_sources(pool, parse_sources({"sources": [source("loop", server.url, "/loop")]}))
        crawl("href", "loop", "FETCH_MAX_REDIRECTS=3")
    assert [h.path for h in server.hits if h.path.startswith("/loop/jobs/")] == [f"/loop/jobs/{i}.html" for i in range(4)]
    with pool.connection() as conn:
        assert conn.execute("SELECT status FROM sources WHERE id = 'loop'").fetchone()["status"] == "active"


def test_the_connecting_resolver_answers_overrides_and_refuses_private_answers():
    from twisted.internet.error import DNSLookupError

    from gigflow.safety.resolver import GuardedResolver

    guard = FetchGuard(allowed_private_hosts=["127.0.0.1"],
                       resolver_overrides={"jobs.acme.co.uk": "127.0.0.1", "rebound.acme.co.uk": "10.0.0.9"})
    resolver = GuardedResolver(reactor=None, cache_size=0, timeout=5, guard=guard)
    answers, failures = [], []
    resolver.getHostByName("jobs.acme.co.uk").addCallbacks(answers.append, failures.append)
    resolver.getHostByName("rebound.acme.co.uk").addCallbacks(answers.append, failures.append)
    assert answers == ["127.0.0.1"]
    assert len(failures) == 1 and failures[0].check(DNSLookupError)
    assert "resolves to a private address 10.0.0.9" in str(failures[0].value)
