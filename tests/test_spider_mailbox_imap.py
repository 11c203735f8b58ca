"""The mailbox spider's IMAP form end to end: a real IMAP server on 127.0.0.1 (tests/imap_test_server.py) serving
the .eml fixtures, read into a real PostgreSQL."""

import pytest
from helpers import crawl, eml_folder, import_source
from imap_test_server import ImapServer

from gigflow.sources.loader import SourceFileError, parse_sources

USER, PASSWORD, PASSWORD_ENV = "alerts@example.org", 'correct "horse" battery', "GIGFLOW_TEST_IMAP_PASSWORD"


@pytest.fixture
def imap_server(tmp_path):
    with ImapServer(eml_folder(tmp_path / "eml"), user=USER, password=PASSWORD, folder="Job alerts") as server:
        yield server


def imap_source(source_id, port, host="127.0.0.1"):
    return {"id": source_id, "company": "Alerts", "status": "active", "canonical_url": "https://alerts.example/",
            "strategies": [{"type": "mailbox", "imap": {"host": host, "port": port, "tls": False, "user": USER,
                                                        "folder": "Job alerts", "password_env": PASSWORD_ENV}}]}


def stored(pool, source_id):
    with pool.connection() as conn:
        versions = conn.execute("SELECT url, content_type FROM source_versions WHERE source_id = %s ORDER BY url",
                                (source_id,)).fetchall()
        jobs = conn.execute("SELECT url, gone_at FROM jobs WHERE source_id = %s ORDER BY url", (source_id,)).fetchall()
        run = conn.execute("SELECT stats, outcome FROM crawl_runs WHERE source_id = %s ORDER BY id DESC LIMIT 1",
                           (source_id,)).fetchone()
    return versions, jobs, run


def body_fetches(server):
    return [c for c in server.commands if c.startswith("UID FETCH") and "HEADER.FIELDS" not in c]


def test_imap_crawl_stores_each_message_once_and_skips_known_bodies(pool, imap_server, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    import_source(pool, imap_source("imap-alerts", imap_server.port), "")
    crawl("mailbox", "imap-alerts")
    versions, jobs, run = stored(pool, "imap-alerts")
    # Four messages, three stored: UID 3 repeats UID 2's Message-ID; the last has none and is kept by its hash.
    assert [v["url"] for v in versions][:2] == ["mid:alert-0001@mail.jobboard.example",
                                                "mid:vacancy-7@employer.example"]
    assert len(versions) == 3 and versions[2]["url"].startswith("urn:sha256:")
    assert all(v["content_type"] == "message/rfc822" for v in versions)
    urls = {j["url"] for j in jobs}
    assert "https://careers.employer.example/vacancies/maintenance-technician" in urls
    assert "https://careers.harbour-freight.example/vacancies/customs-declarant" in urls
    assert not any("unsubscribe" in u for u in urls)
    assert run["outcome"] == "finished" and run["stats"]["gigflow/messages_read"] == 3
    # Read-only, and the repeated Message-ID's body never travelled.
    assert 'EXAMINE "Job alerts"' in imap_server.commands
    assert [c.split()[2] for c in body_fetches(imap_server)] == ["1", "2", "4"]

    # A second run stores nothing; only the message without a Message-ID is fetched again (to learn its hash).
    imap_server.commands.clear()
    crawl("mailbox", "imap-alerts")
    again, jobs_again, run = stored(pool, "imap-alerts")
    assert again == versions and len(jobs_again) == len(jobs)
    assert run["outcome"] == "finished" and run["stats"].get("gigflow/messages_read", 0) == 0
    assert run["stats"]["gigflow/messages_already_stored"] == 4
    assert [c.split()[2] for c in body_fetches(imap_server)] == ["4"]
    assert imap_server.commands[-1] == "LOGOUT"


def test_imap_reads_at_most_mailbox_max_messages(pool, imap_server, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    import_source(pool, imap_source("imap-capped", imap_server.port), "")
    crawl("mailbox", "imap-capped", "MAILBOX_MAX_MESSAGES=1")
    versions, _, run = stored(pool, "imap-capped")
    assert [v["url"] for v in versions] == ["mid:alert-0001@mail.jobboard.example"]
    assert run["outcome"] == "incomplete:cap_reached" and len(body_fetches(imap_server)) == 1


def test_a_broken_session_keeps_what_was_read(pool, imap_server, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    imap_server.drop_connection_at = {2}
    import_source(pool, imap_source("imap-broken", imap_server.port), "")
    result = crawl("mailbox", "imap-broken")
    versions, _, run = stored(pool, "imap-broken")
    assert [v["url"] for v in versions] == ["mid:alert-0001@mail.jobboard.example"]
    assert run["outcome"] == "incomplete:imap_failed" and "UID FETCH" in run["stats"]["gigflow/mailbox_error"]
    assert "Traceback" not in result.stderr


def test_wrong_password_fails_the_run_clearly(pool, imap_server, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, "not the password")
    import_source(pool, imap_source("imap-wrong", imap_server.port), "")
    result = crawl("mailbox", "imap-wrong")
    versions, _, run = stored(pool, "imap-wrong")
    assert versions == [] and run["outcome"] == "incomplete:imap_login_failed"
    assert "AUTHENTICATIONFAILED" in run["stats"]["gigflow/mailbox_error"]
    assert "Traceback" not in result.stderr and "mailbox run failed: login to imap://" in result.stderr
    assert PASSWORD not in result.stderr and "not the password" not in result.stderr


def test_missing_password_variable_fails_before_connecting(pool, imap_server, monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    import_source(pool, imap_source("imap-nopass", imap_server.port), "")
    crawl("mailbox", "imap-nopass")
    _, _, run = stored(pool, "imap-nopass")
    assert run["outcome"] == "incomplete:imap_password_missing"
    assert PASSWORD_ENV in run["stats"]["gigflow/mailbox_error"]
    assert imap_server.commands == []


def test_private_host_not_allowed_is_refused(pool, imap_server, monkeypatch):
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    import_source(pool, imap_source("imap-private", imap_server.port), "")
    result = crawl("mailbox", "imap-private", "FETCH_ALLOWED_PRIVATE_HOSTS=")
    versions, _, run = stored(pool, "imap-private")
    assert versions == [] and run["outcome"] == "incomplete:imap_refused"
    assert "loopback address 127.0.0.1" in run["stats"]["gigflow/mailbox_error"]
    assert imap_server.commands == [] and "Traceback" not in result.stderr


@pytest.mark.parametrize("strategy, complaint", [
    ({"type": "mailbox"}, "exactly one of 'path' or 'imap' (neither given)"),
    ({"type": "mailbox", "path": "/var/mail", "imap": {"host": "imap.example.org", "user": "u"}},
     "exactly one of 'path' or 'imap' (both given)"),
    ({"type": "mailbox", "imap": {"host": "imap.example.org", "user": "u", "password": "x"}},
     "imap: password: a password never lives in the source file"),
    ({"type": "mailbox", "imap": {"host": "imap.example.org:993", "user": "u"}}, "imap.host: not a host name"),
    ({"type": "mailbox", "imap": {"host": "imap.example.org", "user": "u", "search": "ALL\r\nLOGOUT"}},
     "imap.search"),
])
def test_mailbox_configuration_errors_name_the_field(strategy, complaint):
    source = {"id": "bad", "company": "Alerts", "canonical_url": "https://alerts.example/", "strategies": [strategy]}
    with pytest.raises(SourceFileError) as error:
        parse_sources({"sources": [source]})
    assert complaint in str(error.value)


def test_imap_defaults_and_path_sources_keep_their_hash():
    imap, = parse_sources({"sources": [imap_source("x", None, host="imap.example.org")]})
    config = imap.strategies[0].imap
    assert (config.effective_port, config.folder, config.search) == (143, "Job alerts", "ALL")
    path, = parse_sources({"sources": [{"id": "p", "company": "A", "canonical_url": "https://a.example/",
                                        "strategies": [{"type": "mailbox", "path": "/var/mail"}]}]})
    # The form not used is left out of the canonical JSON, so a path source's configuration hash did not change.
    assert '{"path":"/var/mail","type":"mailbox"}' in path.canonical_json()


def test_imap_host_guard_uses_the_fetch_rules():
    from gigflow.safety.guard import FetchGuard, UnsafeURL

    guard = FetchGuard(allowed_private_hosts=["127.0.0.1"], denied_hosts=["blocked.example"],
                       resolver_overrides={"mail.internal.example": "10.1.2.3", "imap.example.org": "93.184.215.14"})
    assert guard.check_host("127.0.0.1", 143, "imap://127.0.0.1:143") == ["127.0.0.1"]
    assert guard.check_host("IMAP.example.org.", 993, "imaps://imap.example.org:993") == ["93.184.215.14"]
    for host, reason in [("mail.internal.example", "host mail.internal.example resolves to a private address 10.1.2.3"),
                         ("imap.blocked.example", "host imap.blocked.example is denied"),
                         ("[::1]", "host ::1 is a loopback address ::1")]:
        with pytest.raises(UnsafeURL) as refused:
            guard.check_host(host, 993, f"imaps://{host}:993")
        assert refused.value.reason == reason and refused.value.url == f"imaps://{host}:993"


def test_fetch_answers_are_grouped_per_message_whatever_the_uid_position():
    from gigflow.mail.imap import fetched_messages

    data = [(b"1 (UID 7 RFC822.SIZE 10 BODY[HEADER.FIELDS (MESSAGE-ID)] {4}", b"a\r\n\r"), b")",
            (b"2 (BODY[HEADER.FIELDS (MESSAGE-ID)] {2}", b"\r\n"), b" UID 9 RFC822.SIZE 3)",
            b"3 (FLAGS (\\Seen) UID 11)"]
    assert fetched_messages(data) == [(b"1 (UID 7 RFC822.SIZE 10 BODY[HEADER.FIELDS (MESSAGE-ID)] {4})", b"a\r\n\r"),
                                      (b"2 (BODY[HEADER.FIELDS (MESSAGE-ID)] {2} UID 9 RFC822.SIZE 3)", b"\r\n"),
                                      (b"3 (FLAGS (\\Seen) UID 11)", None)]
