"""The read API over real HTTP (uvicorn on 127.0.0.1) on the test database: tokens and scopes, keyset pages that
stay stable under inserts, ETag/304, gzip, filters, search, one job with evidence and Markdown."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from delivery_helpers import ApiServer, add_source, add_token, insert_job, publish


def _index(pool):
    from gigflow.delivery.indexer import catch_up

    catch_up(pool)


@pytest.fixture
def api(pool):
    with ApiServer(pool) as server:
        yield server


def test_no_token_no_data_and_scopes_are_enforced(pool, api):
    from gigflow.delivery import tokens

    add_source(pool, "acme-feed")
    with pool.connection() as conn:
        insert_job(conn, "acme-feed", 1)
    publish(pool)
    _index(pool)
    jobs_only = add_token(pool, "site", "jobs:read")
    feed_only = add_token(pool, "partner", "changes:read")

    status, headers, body = api.get("/api/v1/jobs")
    assert status == 401 and "Bearer" in headers["www-authenticate"] and "jobs" not in body
    assert api.get("/api/v1/jobs", "gfapi_not-a-token")[0] == 401
    assert api.get("/api/v1/jobs", feed_only)[0] == 403
    assert api.get("/api/v1/changes", jobs_only)[0] == 403
    status, _, body = api.get("/api/v1/jobs", jobs_only)
    assert status == 200 and len(body["jobs"]) == 1
    job_id = body["jobs"][0]["id"]
    assert api.get(f"/api/v1/jobs/{job_id}")[0] == 401
    assert api.get(f"/api/v1/jobs/{job_id}", feed_only)[0] == 403
    assert api.get("/api/v1/changes", feed_only)[0] == 200

    with pool.connection() as conn:  # stored hashed: the clear token is nowhere in the table
        stored = conn.execute("SELECT token_sha256 FROM api_tokens WHERE name = 'site'").fetchone()["token_sha256"]
    assert stored == tokens.digest(jobs_only) and jobs_only not in stored
    tokens.revoke(pool, "site")
    assert api.get("/api/v1/jobs", jobs_only)[0] == 401

    status, _, spec = api.get("/api/v1/openapi.json")
    assert status == 200 and spec["openapi"].startswith("3.") and "/api/v1/changes" in spec["paths"]
    # Loopback binding answers loopback names only (no DNS rebinding).
    assert api.get("/api/v1/jobs", feed_only, {"Host": "evil.example"})[0] == 400


def test_pages_stay_stable_under_inserts_and_an_unchanged_page_is_a_304(pool, api):
    add_source(pool, "acme-feed")
    with pool.connection() as conn:
        for n in range(12):
            insert_job(conn, "acme-feed", n, title=f"Welder {n}", location=f"Town {n}")
    publish(pool)
    _index(pool)
    token = add_token(pool, "site")

    status, headers, first = api.get("/api/v1/jobs?limit=5", token)
    assert status == 200 and len(first["jobs"]) == 5 and first["next"]
    assert headers["etag"].startswith('W/"') and headers["last-modified"].endswith("GMT")
    assert headers["content-encoding"] == "gzip"  # a page of jobs is worth compressing
    # Unchanged: 304 with no body, on the list and on one job.
    assert api.get("/api/v1/jobs?limit=5", token, {"If-None-Match": headers["etag"]})[0] == 304
    item_path = f"/api/v1/jobs/{first['jobs'][0]['id']}"
    _, item_headers, _ = api.get(item_path, token)
    assert item_headers["etag"] and item_headers["last-modified"]
    assert api.get(item_path, token, {"If-None-Match": item_headers["etag"]})[0] == 304

    with pool.connection() as conn:  # new vacancies arrive between two pages
        for n in range(12, 20):
            insert_job(conn, "acme-feed", n, title=f"Welder {n}", location=f"Town {n}")
    publish(pool)
    _index(pool)

    seen = [job["id"] for job in first["jobs"]]
    cursor = first["next"]
    while cursor:
        status, _, page = api.get(f"/api/v1/jobs?limit=5&cursor={cursor}", token)
        assert status == 200
        seen += [job["id"] for job in page["jobs"]]
        cursor = page["next"]
    with pool.connection() as conn:
        original = [r["canonical_id"] for r in conn.execute(
            "SELECT l.canonical_id FROM canonical_links l JOIN jobs j ON j.id = l.job_id"
            " WHERE j.title = ANY(%s) ORDER BY 1 DESC", ([f"Welder {n}" for n in range(12)],))]
    assert seen == original  # every job there before the first page, once, in order; none shifted or repeated
    status, headers2, now_first = api.get("/api/v1/jobs?limit=5", token, {"If-None-Match": headers["etag"]})
    assert status == 200 and headers2["etag"] != headers["etag"]  # the first page did change
    # A cursor is bound to its filters, and garbage is a clear 400.
    assert api.get(f"/api/v1/jobs?limit=5&employer=Acme&cursor={first['next']}", token)[0] == 400
    status, _, body = api.get("/api/v1/jobs?cursor=%%%", token)
    assert status == 400 and "cursor" in body["error"]
    assert api.get("/api/v1/jobs?limit=100000", token)[0] == 400
    assert api.get("/api/v1/jobs?colour=red", token)[0] == 400


def test_filters_search_and_one_job_with_evidence_sightings_and_markdown(pool, api):
    for source in ("acme-feed", "acme-ats"):
        add_source(pool, source)
    with pool.connection() as conn:
        insert_job(conn, "acme-feed", 1, title="Senior Python Developer", location="Berlin, Germany",
                   remote="remote", employment_type="FULL_TIME", date_posted="2026-11-25")
        insert_job(conn, "acme-ats", 1, title="Senior Python Developer", location="Berlin, Germany",
                   remote="remote", employment_type="FULL_TIME", date_posted="2026-11-25")
        insert_job(conn, "acme-feed", 2, title="Krankenpfleger (m/w/d)", employer="Klinikum Nord",
                   location="Hamburg", description="Wir suchen für unsere Station eine engagierte Pflegekraft. "
                   "Sie arbeiten im Schichtdienst und betreuen unsere Patienten mit Herz und Verstand. " * 3,
                   date_posted="2026-10-01")
        insert_job(conn, "acme-feed", 3, title="Comptable", employer="Banque du Nord", location="Lyon",
                   description="Nous recherchons un comptable pour notre équipe financière à Lyon. " * 5,
                   employment_type="PART_TIME")
        conn.execute("UPDATE jobs SET evidence = '{\"employer\": {\"method\": \"jsonld\","
                     " \"snippet_or_path\": \"hiringOrganization.name\", \"confidence\": 0.95}}'"
                     " WHERE title = 'Comptable'")
    publish(pool)
    _index(pool)
    token = add_token(pool, "site")

    def titles(query: str) -> list[str]:
        status, _, body = api.get("/api/v1/jobs?" + query, token)
        assert status == 200, body
        return [job["title"] for job in body["jobs"]]

    assert titles("source=acme-ats") == ["Senior Python Developer"]  # one canonical job, seen by two sources
    assert titles("employer=klinikum%20nord") == ["Krankenpfleger (m/w/d)"]
    assert titles("location=lyon") == ["Comptable"]
    assert titles("remote=true") == ["Senior Python Developer"]
    assert titles("employment_type=part_time") == ["Comptable"]
    assert titles("posted_since=2026-11-21") == ["Senior Python Developer"]
    # Search: each language's stems (Pflegekräfte ~ Pflegekraft in German, comptables ~ comptable in French).
    assert titles("q=" + quote("Pflegekräfte Schichtdienst")) == ["Krankenpfleger (m/w/d)"]
    assert titles("q=comptables") == ["Comptable"]
    assert titles("q=python%20developers&location=berlin") == ["Senior Python Developer"]
    assert titles("q=hamburg") == ["Krankenpfleger (m/w/d)"]  # location is searched too
    # No job has every word: the jobs with any of them, and the answer says so.
    status, _, body = api.get("/api/v1/jobs?q=comptable%20krankenpfleger&limit=1", token)
    assert body["match"] == "any" and len(body["jobs"]) == 1 and body["next"]
    status, _, body = api.get(f"/api/v1/jobs?q=comptable%20krankenpfleger&limit=1&cursor={body['next']}", token)
    assert body["match"] == "any" and len(body["jobs"]) == 1 and body["next"] is None
    assert api.get("/api/v1/jobs?q=comptable%20lyon", token)[2]["match"] == "all"
    assert api.get("/api/v1/jobs?remote=sometimes", token)[0] == 400
    assert api.get("/api/v1/jobs?posted_since=yesterday", token)[0] == 400

    [comptable] = api.get("/api/v1/jobs?q=comptable", token)[2]["jobs"]
    assert comptable["language"] == "french"
    status, _, job = api.get(f"/api/v1/jobs/{comptable['id']}", token)
    assert status == 200 and job["title"] == "Comptable"
    assert job["fields"]["employer"] == {"value": "Banque du Nord", "evidence": {
        "method": "jsonld", "snippet_or_path": "hiringOrganization.name", "confidence": 0.95}}
    assert [s["source_id"] for s in job["sightings"]] == ["acme-feed"] and "markdown" not in job["sightings"][0]
    with pool.connection() as conn:
        conn.execute("INSERT INTO job_documents (job_id, evidence_path, markdown) SELECT id, 'description',"
                     " '# Comptable' FROM jobs WHERE title = 'Comptable'")
    status, _, job = api.get(f"/api/v1/jobs/{comptable['id']}?markdown=1", token)
    assert job["sightings"][0]["markdown"] == "# Comptable"
    assert api.get("/api/v1/jobs/999999", token)[0] == 404
    assert api.get("/api/v1/jobs/abc", token)[0] == 404


def test_tokens_from_the_command_line(pool, api):
    from helpers import scrapy_command

    bad = scrapy_command("api", "tokens", "add", "cli", "--scope", "jobs:write")
    assert bad.returncode != 0 and "jobs:write" in bad.stderr and "Traceback" not in bad.stderr
    added = scrapy_command("api", "tokens", "add", "cli", "--scope", "jobs:read")
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip().splitlines()[-1]
    assert api.get("/api/v1/jobs", token)[0] == 200
    assert api.get("/api/v1/changes", token)[0] == 403
    listed = scrapy_command("api", "tokens", "list")
    assert "cli" in listed.stdout and "jobs:read" in listed.stdout and token not in listed.stdout
    assert scrapy_command("api", "tokens", "revoke", "cli").returncode == 0
    assert api.get("/api/v1/jobs", token)[0] == 401


def test_serve_api_answers_and_its_indexer_follows_new_jobs(pool):
    """`scrapy serve-api` as a user starts it: migrated, loopback, and a job published meanwhile shows up in the
    list without anyone running the indexer by hand."""
    import os
    import socket
    import subprocess
    import sys
    import time

    from delivery_helpers import ROOT_DIR

    token = add_token(pool, "site", "jobs:read")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "scrapy", "serve-api", "--port", str(port), "-s",
                               "API_INDEX_INTERVAL=0.2"], cwd=ROOT_DIR, env=dict(os.environ),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        client = ApiServer.__new__(ApiServer)
        client.port = port
        deadline = time.monotonic() + 60
        while True:
            try:
                status, _, body = client.get("/api/v1/jobs", token)
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, server.communicate()[1][-2000:]
                time.sleep(0.2)
        assert status == 200 and body["jobs"] == []
        add_source(pool, "acme-feed")
        with pool.connection() as conn:
            insert_job(conn, "acme-feed", 1, title="Night Nurse")
        publish(pool)
        while not body["jobs"]:
            assert time.monotonic() < deadline, "the server's indexer did not pick the new job up"
            time.sleep(0.2)
            body = client.get("/api/v1/jobs", token)[2]
        assert [job["title"] for job in body["jobs"]] == ["Night Nurse"]
    finally:
        server.terminate()
        server.wait(10)
