"""The ats spider end to end: each provider's real payload served at its endpoint path on 127.0.0.1."""

import hashlib
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from gigflow.devserver import BackgroundServer
from helpers import FIXTURES, crawl, import_source, last_run

ATS = FIXTURES / "adapters" / "ats"  # the adapter cases' payloads, served by the test server


def payload(name):
    return json.loads((ATS / name.removesuffix(".json") / "input.json").read_text(encoding="utf-8"))


class AtsServer(BackgroundServer):
    """Answers the five providers' public endpoints from the fixture payloads; anything else is a 404."""

    def __init__(self):
        self.requests: list[tuple[str, str]] = []
        self.etags = False  # answer If-None-Match with 304 when the payload is unchanged
        self.greenhouse = payload("greenhouse-smarterdx.json")
        self.missing: set[str] = set()  # request targets (path?query) that answer 404
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                server.requests.append(("GET", self.path))
                status, body = server.answer(self.path)
                etag = f'"{hashlib.sha256(body).hexdigest()[:16]}"'
                if server.etags and status == 200 and self.headers.get("If-None-Match") == etag:
                    status, body = 304, b""
                self.send_response(status)
                if server.etags and status in (200, 304):
                    self.send_header("ETag", etag)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                server.requests.append(("POST", f"{self.path} {body.decode()}"))
                status, answer = server.answer_post(self.path, json.loads(body or b"{}"))
                self.send_response(status)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

        self._serve(ThreadingHTTPServer(("127.0.0.1", 0), Handler))

    def answer(self, target: str) -> tuple[int, bytes]:
        if target in self.missing:
            return 404, b'{"ok": false, "error": "Document not found"}'
        parts = urlsplit(target)
        path, query = parts.path.rstrip("/"), {k: v[-1] for k, v in parse_qs(parts.query).items()}
        found = None
        if path == "/v1/boards/smarterdx/jobs":
            found = self.greenhouse
        elif path == "/v0/postings/gotogroup":
            skip, limit = int(query.get("skip", 0)), int(query.get("limit", 1000))
            found = payload("lever-gotogroup.json")[skip:skip + limit]
        elif path == "/api/offers":
            found = payload("recruitee-radishlab.json")
        elif path == "/v1/companies/Gousto1/postings":
            listing = payload("smartrecruiters-gousto.json")
            offset, limit = int(query.get("offset", 0)), int(query.get("limit", 100))
            found = {**listing, "offset": offset, "limit": limit,
                     "totalFound": len(listing["content"]), "content": listing["content"][offset:offset + limit]}
        elif path.startswith("/v1/companies/Gousto1/postings/"):
            posting_id = path.rsplit("/", 1)[1]
            recorded = payload("smartrecruiters-gousto-posting.json")
            # One recorded detail; the others answer with their own listing record (the detail's subset).
            found = recorded if recorded["id"] == posting_id else next(
                (p for p in payload("smartrecruiters-gousto.json")["content"] if p["id"] == posting_id), None)
        elif path == "/api/v1/widget/accounts/kroo":
            found = payload("workable-kroo.json")
        if found is None:
            return 404, b'{"status": 404, "error": "Not found"}'
        return 200, json.dumps(found).encode("utf-8")

    def answer_post(self, path: str, body: dict) -> tuple[int, bytes]:
        """Workable's v3 jobs API: pages of three, the next one asked for by POSTing back its token. The records are
        the real Kroo widget jobs in the v3 shape (no v3 payload was recorded)."""
        if path != "/api/v3/accounts/kroo/jobs":
            return 404, b'{"error": "Not found"}'
        jobs = payload("workable-kroo.json")["jobs"]
        start = int(body.get("token") or 0)
        results = [{"shortcode": j["shortcode"], "title": j["title"], "type": j["employment_type"],
                    "published": j["published_on"], "remote": j["telecommuting"],
                    "location": {"city": j["city"], "region": j["state"], "country": j["country"]},
                    "description": j["description"]} for j in jobs[start:start + 3]]
        page = {"total": len(jobs), "results": results}
        if start + 3 < len(jobs):
            page["nextPage"] = str(start + 3)
        return 200, json.dumps(page).encode("utf-8")


@pytest.fixture
def ats_server():
    with AtsServer() as server:
        yield server


def crawl_board(pool, server, provider, board, *settings, region="us"):
    import_source(pool, {"id": f"{provider}-{board}".lower(), "company": board, "status": "active",
                         "canonical_url": f"https://{board.lower()}.example/careers",
                         "strategies": [{"type": "ats", "provider": provider, "board_id": board, "region": region}]},
                  server.url)
    host_key = f"{provider}-eu" if region == "eu" else provider
    crawl("ats", f"{provider}-{board}".lower(), "ATS_BASE_URLS=" + json.dumps({host_key: server.url}), *settings)
    with pool.connection() as conn:
        jobs = conn.execute("SELECT external_id, title, fields, parser_key, gone_at FROM jobs ORDER BY id").fetchall()
        run = last_run(pool)
    return jobs, run


@pytest.mark.parametrize("provider, board, ids", [
    ("greenhouse", "smarterdx", lambda: [str(j["id"]) for j in payload("greenhouse-smarterdx.json")["jobs"]]),
    ("recruitee", "radishlab", lambda: [str(o["id"]) for o in payload("recruitee-radishlab.json")["offers"]]),
    ("workable", "kroo", lambda: [j["shortcode"] for j in payload("workable-kroo.json")["jobs"]]),
])
def test_single_payload_boards(pool, ats_server, provider, board, ids):
    jobs, run = crawl_board(pool, ats_server, provider, board)
    assert sorted(j["external_id"] for j in jobs) == sorted(ids())
    assert all(j["parser_key"] == provider and j["fields"].get("description") for j in jobs)
    assert run["outcome"] == "finished" and run["stats"]["gigflow/listing_pages"] == 1


@pytest.mark.parametrize("region", ["us", "eu"])
def test_lever_pages_with_skip_and_limit(pool, ats_server, region):
    # Only the region's host points at the test server: the EU source must use "lever-eu".
    jobs, run = crawl_board(pool, ats_server, "lever", "gotogroup", "ATS_PAGE_SIZE=2", region=region)
    assert sorted(j["external_id"] for j in jobs) == sorted(p["id"] for p in payload("lever-gotogroup.json"))
    pages = [path for _, path in ats_server.requests if path.startswith("/v0/postings/")]
    assert [parse_qs(urlsplit(p).query)["skip"] for p in pages] == [["0"], ["2"]]  # a short page ends the listing
    assert run["outcome"] == "finished"


def test_smartrecruiters_pages_by_offset_and_fetches_each_detail(pool, ats_server):
    listing = payload("smartrecruiters-gousto.json")["content"]
    jobs, run = crawl_board(pool, ats_server, "smartrecruiters", "Gousto1", "ATS_PAGE_SIZE=10")
    assert sorted(j["external_id"] for j in jobs) == sorted(p["id"] for p in listing)
    details = [path for _, path in ats_server.requests if path.startswith("/v1/companies/Gousto1/postings/")]
    assert len(details) == len(listing)
    recorded = payload("smartrecruiters-gousto-posting.json")
    # Only the recorded detail carries the job ad; listing records have none, so its text came from the detail.
    described = [j["external_id"] for j in jobs if j["fields"].get("description")]
    assert described == [recorded["id"]]
    assert run["stats"]["gigflow/listing_pages"] == 2 and run["outcome"] == "finished"


def test_job_missing_from_the_next_listing_is_marked_gone(pool, ats_server):
    jobs, _ = crawl_board(pool, ats_server, "greenhouse", "smarterdx")
    removed = ats_server.greenhouse["jobs"].pop(0)
    jobs, run = crawl_board(pool, ats_server, "greenhouse", "smarterdx")
    gone = {j["external_id"]: j["gone_at"] for j in jobs}
    assert gone[str(removed["id"])] is not None  # marked, still there
    assert all(at is None for key, at in gone.items() if key != str(removed["id"]))
    assert run["stats"]["gigflow/jobs_gone"] == 1


def test_board_answering_404_quarantines_the_source_without_retrying(pool, ats_server):
    jobs, run = crawl_board(pool, ats_server, "greenhouse", "nosuchboard")
    with pool.connection() as conn:
        source = conn.execute("SELECT status, status_reason FROM sources").fetchone()
    assert jobs == [] and run["outcome"] == "incomplete:board_missing"
    assert source["status"] == "quarantined" and "answered 404" in source["status_reason"]
    assert [p for _, p in ats_server.requests if "nosuchboard" in p] == ["/v1/boards/nosuchboard/jobs?content=true"]


def test_a_later_page_answering_404_makes_the_run_incomplete_and_keeps_the_status(pool, ats_server):
    ats_server.missing.add("/v0/postings/gotogroup?mode=json&skip=2&limit=2")
    jobs, run = crawl_board(pool, ats_server, "lever", "gotogroup", "ATS_PAGE_SIZE=2")
    with pool.connection() as conn:
        source = conn.execute("SELECT status, status_reason FROM sources").fetchone()
        events = conn.execute("SELECT to_status FROM source_status_events WHERE actor <> 'import'").fetchall()
    assert [p for _, p in ats_server.requests if p.startswith("/v0/postings/")][-1] in ats_server.missing
    assert run["outcome"] == "incomplete:page_missing" and len(jobs) == 2 and run["stats"]["gigflow/ats_page_missing"] == 1
    assert source["status"] == "active" and events == []


def test_workable_v3_pages_by_posting_back_next_page(pool, ats_server):
    jobs, run = crawl_board(pool, ats_server, "workable", "kroo", "ATS_WORKABLE_ENDPOINT=v3")
    widget = payload("workable-kroo.json")["jobs"]
    assert sorted(j["external_id"] for j in jobs) == sorted(j["shortcode"] for j in widget)
    posts = [target.split(" ", 1)[1] for method, target in ats_server.requests if method == "POST"]
    assert posts == ["{}", '{"token": "3"}', '{"token": "6"}']
    assert run["stats"]["gigflow/listing_pages"] == 3 and run["outcome"] == "finished"


def test_not_modified_listing_is_read_again_from_the_store(pool, ats_server):
    ats_server.etags = True
    first, _ = crawl_board(pool, ats_server, "greenhouse", "smarterdx")
    jobs, run = crawl_board(pool, ats_server, "greenhouse", "smarterdx")
    assert run["stats"]["downloader/response_status_count/304"] == 1
    assert run["stats"]["gigflow/listings_not_modified"] == 1 and run["stats"]["gigflow/versions_unchanged"] == 1
    assert len(jobs) == len(first) and all(j["gone_at"] is None for j in jobs)
    assert run["outcome"] == "finished" and run["stats"]["gigflow/jobs_updated"] == len(first)
    with pool.connection() as conn:  # the replayed listing keeps its stored Markdown and preparation report
        [version] = conn.execute("SELECT m.markdown, v.preparation FROM source_versions v "
                                 "LEFT JOIN markdowns m ON m.sha256 = v.markdown_sha256").fetchall()
    assert version["markdown"] and version["preparation"] is not None
