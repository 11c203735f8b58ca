"""Job identity (README "Job identity"): keys per source, weak ids and shared URLs, re-extraction, events.
Real HTTP on 127.0.0.1 into PostgreSQL; each test failed on the code before job identity."""

import json

from scripted_server import Reply, ScriptedServer
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import crawl_sequence, last_run, scrapy_command


def posting_page(title: str, city: str, identifier: str | None) -> bytes:
    posting = {"@context": "https://schema.org", "@type": "JobPosting", "title": title,
               "hiringOrganization": {"@type": "Organization", "name": "Acme Works"},
               "jobLocation": {"@type": "Place", "address": {"@type": "PostalAddress", "addressLocality": city}}}
    if identifier:
        posting["identifier"] = identifier
    return (f'<html><head><title>{title}</title><script type="application/ld+json">{json.dumps(posting)}</script>'
            f"</head><body><h1>{title}</h1><p>{title} in {city}.</p></body></html>").encode()


class Board:
    """A career site whose listing and pages a test changes between crawls."""

    def __init__(self, pages: dict[str, bytes], prefix: str = "/acme"):
        self.prefix, self.pages = prefix, dict(pages)
        self.listed = list(pages)
        self.listing_reply: Reply | None = None

    def route(self, path, headers):
        if path == "/robots.txt":
            return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"})
        if path == f"{self.prefix}/":
            if self.listing_reply is not None:
                return self.listing_reply
            cards = "".join(f'<li class="job-card"><a href="{self.prefix}/jobs/{name}">{name}</a></li>'
                            for name in self.listed)
            return Reply(body=f"<html><body><ul>{cards}</ul></body></html>".encode())
        name = path.rsplit("/", 1)[-1]
        if path.startswith(f"{self.prefix}/jobs/") and name in self.pages:
            return Reply(body=self.pages[name])
        return Reply(status=404, body=b"not found")


def href_source(source_id, base, prefix="/acme", company="Acme Works"):
    return {"id": source_id, "company": company, "canonical_url": f"{base}{prefix}/", "status": "active",
            "strategies": [{"type": "href", "listing_urls": [f"{base}{prefix}/"], "card_selector": "li.job-card",
                            "job_url_patterns": [f"{prefix}/jobs/"]}]}


def jobs(pool, source_id=None):
    with pool.connection() as conn:
        return conn.execute("SELECT * FROM jobs WHERE %(s)s::text IS NULL OR source_id = %(s)s ORDER BY url, id",
                            {"s": source_id}).fetchall()


def events(pool):
    with pool.connection() as conn:
        return conn.execute("SELECT j.url, j.title, e.kind, e.fields FROM job_events e JOIN jobs j ON j.id = e.job_id"
                            " ORDER BY e.id").fetchall()


def test_weak_ids_never_merge_jobs_and_a_vanished_page_retires_only_its_own_job(pool):
    # Two ids that are really the title, and one id ("REF") shared by two pages with different titles.
    board = Board({"welder-berlin.html": posting_page("Welder", "Berlin", "Welder"),
                   "welder-munich.html": posting_page("Welder", "Munich", "Welder"),
                   "painter.html": posting_page("Painter", "Hamburg", "REF"),
                   "plumber.html": posting_page("Plumber", "Bremen", "REF"),
                   "baker.html": posting_page("Baker", "Kiel", "B-7731")})
    with ScriptedServer(board.route) as server:
        import_sources(pool, parse_sources([href_source("acme", server.url)]))
        crawl_sequence(("href", "acme"))
        first = jobs(pool)
        board.listed = ["welder-berlin.html", "painter.html", "baker.html"]
        crawl_sequence(("href", "acme"))
        second = jobs(pool)
    assert len(first) == 5 and {j["fields"]["location"] for j in first} >= {"Berlin", "Munich"}
    keys = {j["url"].rsplit("/", 1)[-1]: j["canonical_key"] for j in first}
    assert keys["baker.html"] == "id:B-7731"  # a trustworthy id is the identity
    assert keys["welder-berlin.html"].startswith("url:") and keys["painter.html"].startswith("url:")
    live = {j["url"].rsplit("/", 1)[-1] for j in second if j["gone_at"] is None}
    assert live == {"welder-berlin.html", "painter.html", "baker.html"}
    assert len(second) == 5 and last_run(pool)["stats"]["gigflow/jobs_gone"] == 2
    gone = [(e["url"].rsplit("/", 1)[-1], e["kind"]) for e in events(pool) if e["kind"] == "gone"]
    assert sorted(gone) == [("plumber.html", "gone"), ("welder-munich.html", "gone")]
    history = scrapy_command("jobs", "history", keys["welder-munich.html"])
    assert history.returncode == 0 and "seen" in history.stdout and "gone" in history.stdout


def rss(entries: list[tuple[str, str]], link: str) -> bytes:
    items = "".join(f"<item><title>{title}</title><link>{link}</link><description>{title} in {city}"
                    f"</description><category>{city}</category></item>" for title, city in entries)
    return (f'<?xml version="1.0"?><rss version="2.0"><channel><title>Jobs</title><link>{link}</link>'
            f"{items}</channel></rss>").encode()


def test_feed_entries_sharing_one_link_stay_apart_and_another_source_never_takes_a_job_over(pool):
    entries = [(f"Nurse {i}", city) for i, city in enumerate(["Utrecht", "Delft", "Gouda", "Breda", "Ede", "Venlo",
                                                               "Zwolle", "Assen", "Hoorn"])]
    board = Board({"nurse.html": posting_page("Nurse", "Utrecht", None)})

    def route(path, headers):
        if path == "/other/feed.xml":
            # Nine entries linking to one page; the last also lists the first source's job URL.
            return Reply(body=rss(entries, f"{base}/care/apply.html")[:-len(b"</channel></rss>")]
                         + f"<item><title>Nurse (agency copy)</title><link>{base}/acme/jobs/nurse.html</link>"
                           f"</item></channel></rss>".encode(), headers={"Content-Type": "application/rss+xml"})
        return board.route(path, headers)

    with ScriptedServer(route) as server:
        base = server.url
        import_sources(pool, parse_sources([href_source("acme", base), {
            "id": "agency", "company": "Agency", "canonical_url": f"{base}/other/", "status": "active",
            "strategies": [{"type": "feed", "feed_urls": [f"{base}/other/feed.xml"]}]}]))
        crawl_sequence(("href", "acme"), ("feed", "agency"), ("href", "acme"))
    own = jobs(pool, "acme")
    agency = jobs(pool, "agency")
    assert len(agency) == 10 and len({j["canonical_key"] for j in agency}) == 10
    assert sorted(j["fields"]["title"] for j in agency if j["url"].endswith("apply.html")) == [t for t, _ in entries]
    # One job each for the shared URL; the agency's crawl changed nothing of acme's row.
    [mine] = own
    assert mine["title"] == "Nurse" and mine["source_id"] == "acme" and mine["gone_at"] is None
    assert any(j["url"] == mine["url"] and j["title"] == "Nurse (agency copy)" for j in agency)
    assert [e["kind"] for e in events(pool) if e["url"] == mine["url"] and e["title"] == "Nurse"] == ["seen"]


def test_a_second_company_cannot_share_a_canonical_url(pool):
    from gigflow.sources.repository import SourceConflictError

    first = {"id": "north", "company": "Northwind", "canonical_url": "https://jobs.example.org/",
             "strategies": [{"type": "href", "listing_urls": ["https://jobs.example.org/"]}]}
    import_sources(pool, parse_sources([first]))
    second = {**first, "id": "south", "company": "Southwind"}
    try:
        import_sources(pool, parse_sources([second]))
    except SourceConflictError as exc:
        message = str(exc)
    else:
        raise AssertionError("a second company's source was imported onto the first one's configuration")
    assert "'north' (Northwind)" in message and "'south' (Southwind)" in message
    with pool.connection() as conn:
        assert [r["id"] for r in conn.execute("SELECT id FROM sources")] == ["north"]
        assert conn.execute("SELECT c.name FROM configurations g JOIN companies c ON c.id = g.company_id"
                            ).fetchone()["name"] == "Northwind"


def etag_board(board: Board):
    """Job pages answer 304 to their own ETag, as a server whose pages did not change."""

    def route(path, headers):
        reply = board.route(path, headers)
        if reply.status != 200 or "/jobs/" not in path:
            return reply
        etag = '"v1"'
        if headers.get("If-None-Match") == etag:
            return Reply(status=304, body=b"", headers={"ETag": etag})
        return Reply(body=reply.body, headers={**reply.headers, "ETag": etag})

    return route


def test_unchanged_pages_are_re_extracted_revived_and_exported_with_their_jobs(pool, tmp_path):
    board = Board({"baker.html": posting_page("Baker", "Kiel", "B-1"),
                   "cook.html": posting_page("Cook", "Lübeck", "C-2")})
    out = tmp_path / "jobs.jsonl"
    with ScriptedServer(etag_board(board)) as server:
        import_sources(pool, parse_sources([href_source("acme", server.url)]))
        crawl_sequence(("href", "acme"))
        fetched = {j["title"]: j["fields"]["description"] for j in jobs(pool)}
        with pool.connection() as conn:
            # Stored by an older parser, and one job marked gone by mistake with its page link lost.
            conn.execute("UPDATE jobs SET parser_version = '0.9.0'")
            conn.execute("UPDATE jobs SET gone_at = now(), source_version_id = NULL WHERE title = 'Cook'")
        crawl_sequence(("href", "acme", {"FEEDS": {str(out): {"format": "jsonlines"}}}))
        not_modified = [h for h in server.hits if "/jobs/" in h.path][2:]
    assert len(not_modified) == 2 and all(h.headers.get("If-None-Match") == '"v1"' for h in not_modified)
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(job["title"] for item in items for job in item["jobs"]) == ["Baker", "Cook"]
    assert all(item["http_status"] == 304 and item["version_status"] == "unchanged" and item["markdown"]
               for item in items)
    stored = jobs(pool)
    assert all(j["gone_at"] is None and j["parser_version"] != "0.9.0" and j["source_version_id"] for j in stored)
    # Read again from the stored page, a job is the job it was when fetched: its description is still the
    # prepared document, not the raw page's text.
    assert {j["title"]: j["fields"]["description"] for j in stored} == fetched
    assert all(j["evidence"]["description"]["method"] == "prepared" for j in stored)
    kinds = [(e["title"], e["kind"]) for e in events(pool)]
    assert ("Cook", "revived") in kinds and ("Baker", "reextracted") in kinds and ("Cook", "reextracted") in kinds
    assert last_run(pool)["outcome"] == "finished"
    # `scrapy jobs reextract` does the same for stored pages without fetching them.
    with pool.connection() as conn:
        conn.execute("UPDATE jobs SET parser_version = '0.9.0' WHERE title = 'Baker'")
    result = scrapy_command("jobs", "reextract", "--source", "acme")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "1 job(s) re-extracted" in result.stdout and "1 page(s) already current" in result.stdout
    assert {j["parser_version"] for j in jobs(pool)} != {"0.9.0"}
    assert [e["kind"] for e in events(pool) if e["title"] == "Baker"][-1] == "reextracted"
    assert {j["title"]: j["fields"]["description"] for j in jobs(pool)} == fetched


def test_existing_keys_are_migrated_per_source(admin_database_url):
    import secrets

    import psycopg
    from psycopg.conninfo import make_conninfo
    from psycopg.rows import dict_row
    from psycopg_pool import ConnectionPool

    from gigflow.db.migrate import migrations, upgrade

    name = f"gigflow_test_keys_{secrets.token_hex(3)}"
    with psycopg.connect(admin_database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = make_conninfo(admin_database_url, dbname=name)
    try:
        with psycopg.connect(url, autocommit=True) as conn:  # a database as the code before 0003 left it
            conn.execute("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,"
                         " applied_at timestamptz NOT NULL DEFAULT now())")
            for version, label, sql in migrations():
                if version < 3:
                    conn.execute(sql)
                    conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)", (version, label))
            conn.execute("INSERT INTO companies (name) VALUES ('A'); INSERT INTO configurations (company_id,"
                         " canonical_url, strategies, config_hash) VALUES (1, 'https://a.example/', '[]', 'h');"
                         " INSERT INTO sources (id, configuration_id, company_id, url) VALUES"
                         " ('a', 1, 1, 'https://a.example/')")
            for key, external_id, parser in [("jsonld:a:B-1", "B-1", "jsonld"), ("https://a.example/jobs/2", None, "generic"),
                                             ("feed:a:B-1", "B-1", "feed")]:
                conn.execute("INSERT INTO jobs (canonical_key, source_id, title, external_id, confidence, parser_key,"
                             " parser_version) VALUES (%s, 'a', 't', %s, 1, %s, '1')", (key, external_id, parser))
        with ConnectionPool(url, kwargs={"row_factory": dict_row}, open=True) as pool:
            assert 3 in upgrade(pool)
            with pool.connection() as conn:
                keys = [r["canonical_key"] for r in conn.execute("SELECT canonical_key FROM jobs ORDER BY id")]
    finally:
        with psycopg.connect(admin_database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    # The same id under two parsers of one source keeps both rows apart (the latest seen takes the key).
    assert keys == ["id:B-1#job:1", "url:https://a.example/jobs/2", "id:B-1"]
