"""Storage grows with change: bodies once per sha256, versions only when Markdown or jobs change, retention."""

from __future__ import annotations

import hashlib
import itertools
import secrets

import psycopg
from psycopg.conninfo import make_conninfo
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb

from gigflow.db.migrate import migrations
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from gigflow.store import versions
from helpers import crawl, scrapy_command
from scripted_server import Reply, ScriptedServer, site, source

_tokens = itertools.count()


def volatile_site(state):
    """Job pages carrying a fresh CSRF token and script nonce on every request; ``state["titles"]`` renames jobs."""
    pages = site("/vs", jobs=2)

    def route(path, headers):
        reply = pages(path, headers)
        if not path.startswith("/vs/jobs/"):
            return reply
        n = next(_tokens)
        body = reply.body.replace(b"<h1>Engineer 1</h1>", f"<h1>{state['title']}</h1>".encode()).replace(
            b"</body>", f'<form><input type="hidden" name="csrf" value="tok{n:08d}"></form>'
                        f'<script nonce="n{n:08d}">window.t={n}</script></body>'.encode())
        return Reply(body=body, headers={**reply.headers, "ETag": f'"e{n}"'})

    return route


def rows(pool, query, *params):
    with pool.connection() as conn:
        return conn.execute(query, params).fetchall()


def test_a_token_only_change_refreshes_the_version_and_a_changed_job_stores_one(pool):
    state = {"title": "Engineer 1"}
    with ScriptedServer(volatile_site(state)) as server:
        import_sources(pool, parse_sources({"sources": [source("vs", server.url, "/vs")]}))
        crawl("href", "vs")
        first = rows(pool, "SELECT id, url, fetched_at, last_fetched_at FROM source_versions ORDER BY id")
        crawl("href", "vs")
        second = rows(pool, "SELECT id, fetched_at, last_fetched_at, etag FROM source_versions ORDER BY id")
        state["title"] = "Principal Engineer 1"
        crawl("href", "vs")
    assert len(first) == 2 and [v["id"] for v in second] == [v["id"] for v in first]  # no new version
    assert all(b["last_fetched_at"] > a["last_fetched_at"] and b["fetched_at"] == a["fetched_at"]
               for a, b in zip(first, second))
    # the next conditional GET sends the validators of the latest fetch, not of the version's first fetch
    third_run = [h for h in server.hits if h.path.startswith("/vs/jobs/")][4:]
    assert sorted(h.headers.get("If-None-Match") for h in third_run) == sorted(v["etag"] for v in second)
    runs = rows(pool, "SELECT stats FROM crawl_runs ORDER BY id")
    assert runs[1]["stats"]["gigflow/versions_new"] == 0 and runs[1]["stats"]["gigflow/versions_refreshed"] == 2
    assert runs[2]["stats"]["gigflow/versions_new"] == 1
    after = rows(pool, "SELECT v.url, b.body FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256 ORDER BY v.id")
    assert len(after) == 3 and after[2]["url"].endswith("/vs/jobs/1.html")
    assert b"Principal Engineer 1" in bytes(after[2]["body"])
    assert rows(pool, "SELECT count(*) AS n FROM bodies")[0]["n"] == 3  # refreshed fetches keep no body


def fetch(source_id, url, body: bytes, markdown="# Job", jobs=({"title": "Job"},)):
    return {"source_id": source_id, "url": url, "http_status": 200, "content_type": "text/html", "etag": None,
            "last_modified": None, "sha256": hashlib.sha256(body).hexdigest(), "size": len(body), "body": body,
            "markdown": markdown, "preparation": Jsonb({}), "jobs_digest": versions.jobs_digest(list(jobs))}


def add_sources(pool, *ids):
    import_sources(pool, parse_sources({"sources": [
        {"id": i, "company": f"Company {i}", "canonical_url": f"https://{i}.example/jobs/", "status": "active",
         "strategies": [{"type": "href", "listing_urls": [f"https://{i}.example/jobs/"]}]} for i in ids]}))


def test_identical_bodies_and_markdown_across_sources_are_stored_once_and_compressed(pool):
    add_sources(pool, "a", "b")
    body = b"<html><body>" + b"<p>the same board page</p>" * 2000 + b"</body></html>"
    with pool.connection() as conn:
        first = versions.store_fetch(conn, fetch("a", "https://board.example/1", body))
        second = versions.store_fetch(conn, fetch("b", "https://board.example/1", body))
        again = versions.store_fetch(conn, fetch("b", "https://board.example/1", body))
        stored = conn.execute("SELECT count(*) AS n, sum(pg_column_size(body)) AS on_disk FROM bodies").fetchone()
        markdowns = conn.execute("SELECT count(*) AS n FROM markdowns").fetchone()["n"]
        read_back = versions.version_body(conn, second.id)
    assert [first.status, second.status, again.status] == ["new", "new", "unchanged"]
    assert stored["n"] == 1 and stored["on_disk"] < len(body) / 10 and markdowns == 1
    assert bytes(read_back.body) == body and read_back.markdown == "# Job"


def test_same_markdown_with_other_jobs_is_a_new_version(pool):
    add_sources(pool, "a")
    url = "https://a.example/jobs/1"
    with pool.connection() as conn:
        first = versions.store_fetch(conn, fetch("a", url, b"<p>1</p><!-- t1 -->"))
        token = versions.store_fetch(conn, fetch("a", url, b"<p>1</p><!-- t2 -->"))
        jobs = versions.store_fetch(conn, fetch("a", url, b"<p>1</p><!-- t3 -->", jobs=[{"title": "Job", "x": 1}]))
    assert [first.status, token.status, jobs.status] == ["new", "refreshed", "new"]
    assert token.id == first.id and jobs.id != first.id


def test_prune_keeps_referenced_and_newest_versions_and_deletes_the_rest(pool):
    add_sources(pool, "a")
    url = "https://a.example/jobs/"
    with pool.connection() as conn:
        ids = [versions.store_fetch(conn, fetch("a", f"{url}{i // 5}", f"<p>{i}</p>".encode(), f"# {i}")).id
               for i in range(10)]  # two URLs, five versions each
        conn.execute("UPDATE source_versions SET last_fetched_at = now() - interval '40 days'")
        conn.execute("INSERT INTO jobs (canonical_key, source_id, source_version_id, title, confidence, parser_key,"
                     " parser_version) VALUES ('k', 'a', %s, 'Job', 1, 'p', '1')", (ids[0],))
        conn.execute("UPDATE configurations SET config = jsonb_set(config, '{noiseFilter}', %s)",
                     (Jsonb({"samples": [{"source_id": "a", "source_version_id": ids[1], "sha256": "x"}]}),))
        sha = conn.execute("SELECT sha256 FROM source_versions WHERE id = %s", (ids[5],)).fetchone()["sha256"]
        conn.execute("INSERT INTO listing_snapshots (source_id, url, sha256, body) VALUES ('a', %s, %s, '')",
                     (f"{url}1", sha))
        conn.execute("UPDATE source_versions SET last_fetched_at = now() WHERE id = %s", (ids[6],))  # fetched lately

    dry = scrapy_command("db", "prune", "--dry-run", "--days", "30")
    assert dry.returncode == 0, dry.stderr[-2000:]
    assert "would delete 4 version(s)" in dry.stdout and "4 unreferenced bod(ies)" in dry.stdout
    assert "and 4 Markdown document(s)" in dry.stdout
    assert rows(pool, "SELECT count(*) AS n FROM source_versions")[0]["n"] == 10
    done = scrapy_command("db", "prune", "--days", "30")
    assert done.returncode == 0 and "deleted 4 version(s)" in done.stdout, done.stderr[-2000:]
    kept = [r["id"] for r in rows(pool, "SELECT id FROM source_versions ORDER BY id")]
    # job, noise sample, listing snapshot, fetched lately, each URL's newest
    assert kept == [ids[0], ids[1], ids[4], ids[5], ids[6], ids[9]]
    assert rows(pool, "SELECT count(*) AS n FROM bodies")[0]["n"] == 6
    assert rows(pool, "SELECT count(*) AS n FROM markdowns")[0]["n"] == 6
    bad = scrapy_command("db", "prune", "--days", "-3")
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert "--days must be a number of days >= 0" in bad.stderr
    huge = scrapy_command("db", "prune", "--days", "1e300")
    assert huge.returncode != 0 and "at most 100000" in huge.stderr and "Traceback" not in huge.stderr


def test_the_migration_moves_existing_bodies(admin_database_url):
    name = f"gigflow_test_storage_{secrets.token_hex(3)}"
    with psycopg.connect(admin_database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        with psycopg.connect(make_conninfo(admin_database_url, dbname=name), row_factory=dict_row) as conn:
            for version, _, sql in migrations():
                if version < 13:
                    conn.execute(sql)
            conn.execute("INSERT INTO companies (id, name) VALUES (1, 'Acme')")
            conn.execute("INSERT INTO configurations (id, company_id, canonical_url, strategies, config_hash)"
                         " VALUES (1, 1, 'https://x.example/', '[]', 'h')")
            conn.execute("INSERT INTO sources (id, configuration_id, company_id, url)"
                         " SELECT i, 1, 1, 'https://x.example/' FROM unnest(ARRAY['a', 'b']) AS i")
            shared, own = b"<p>shared</p>" * 500, b"<p>own</p>"
            for source_id, url, body in (("a", "u1", shared), ("b", "u1", shared), ("a", "u2", own)):
                conn.execute("INSERT INTO source_versions (source_id, url, http_status, sha256, size, body, markdown)"
                             " VALUES (%s, %s, 200, %s, %s, %s, 'md')",
                             (source_id, url, hashlib.sha256(body).hexdigest(), len(body), body))
            [latest] = [sql for version, _, sql in migrations() if version == 13]
            conn.execute(latest)
            moved = conn.execute("SELECT v.source_id, v.url, b.body, m.markdown,"
                                 " v.fetched_at = v.last_fetched_at AS same FROM source_versions v"
                                 " JOIN bodies b ON b.sha256 = v.sha256"
                                 " JOIN markdowns m ON m.sha256 = v.markdown_sha256 ORDER BY v.id").fetchall()
            count = conn.execute("SELECT (SELECT count(*) FROM bodies) AS bodies,"
                                 " (SELECT count(*) FROM markdowns) AS markdowns").fetchone()
            columns = {r["column_name"] for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'source_versions'")}
        assert [(m["source_id"], m["url"], bytes(m["body"]), m["markdown"]) for m in moved] == [
            ("a", "u1", shared, "md"), ("b", "u1", shared, "md"), ("a", "u2", own, "md")]
        assert count == {"bodies": 2, "markdowns": 1} and all(m["same"] for m in moved)
        assert not {"body", "markdown"} & columns
    finally:
        with psycopg.connect(admin_database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
