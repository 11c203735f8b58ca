"""The ats spider on the providers added with issue #25, each board answered on 127.0.0.1 from its fixture payload
(fixtures/adapters/ats/<provider>-*): paging to the end, details where listings carry no text, the politeness
interval held between requests, a missing board quarantined, a later missing page leaving the run incomplete."""

from __future__ import annotations

import copy
import json
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

from gigflow.devserver import BackgroundServer
from gigflow.politeness.keys import Policies
from gigflow.settings import POLITENESS_PROVIDER_POLICIES
from helpers import FIXTURES, TEST_CRAWL_SETTINGS, crawl_in_process, import_source, last_run

ATS = FIXTURES / "adapters" / "ats"
PAGE = 2  # ATS_PAGE_SIZE in these crawls: every paging provider needs two pages for its fixture


def fixture(name: str):
    [body] = (ATS / name).glob("input.*")
    return json.loads(body.read_text(encoding="utf-8")) if body.suffix == ".json" else body.read_text(encoding="utf-8")


def _radancy_pages() -> list[str]:
    fragment = fixture("radancy-veolia")["results"]
    cards = re.findall(r"<li class=\"list-none.*?</li>", fragment, re.S)
    pages = [cards[i:i + 4] for i in range(0, len(cards), 4)]
    return [f'<section id="search-results" data-total-pages="{len(pages)}" data-current-page="{n + 1}">'
            f'<section id="search-results-list"><ul>{"".join(page)}</ul></section></section>'
            for n, page in enumerate(pages)]


class Board:
    """One provider's board: the source's strategy, the ids its crawl must store, and the answer to each request."""

    def __init__(self, provider: str, board_id: str, ids: list[str], paged: bool = False):
        self.provider, self.board_id, self.ids, self.paged = provider, board_id, ids, paged

    def answer(self, method: str, path: str, query: dict, body: dict) -> object | None:
        raise NotImplementedError


class Single(Board):
    """A provider answering every job in one payload at one path."""

    def __init__(self, provider, board_id, ids, path, payload, details=None):
        super().__init__(provider, board_id, ids)
        self.path, self.payload, self.details = path, payload, details or {}

    def answer(self, method, path, query, body):
        if path == self.path:
            return self.payload
        return self.details.get(path)


def _workday() -> Board:
    listing = fixture("workday-motorolasolutions")
    detail = fixture("workday-motorolasolutions-job")
    postings = listing["jobPostings"]

    class Workday(Board):
        def answer(self, method, path, query, body):
            if path == "/wday/cxs/acme/External/jobs" and method == "POST":
                offset, limit = int(body.get("offset", 0)), int(body.get("limit", 20))
                # As Workday does: the total comes with the first page only.
                return {**listing, "total": len(postings) if offset == 0 else 0,
                        "jobPostings": postings[offset:offset + limit]}
            for posting in postings:
                if path == f"/wday/cxs/acme/External{posting['externalPath']}":
                    answer = copy.deepcopy(detail)
                    info = answer["jobPostingInfo"]
                    info.update(title=posting["title"], jobReqId=posting["externalPath"].rsplit("_", 1)[1],
                                location=posting["locationsText"],
                                externalUrl=f"https://acme.wd5.myworkdayjobs.com/External{posting['externalPath']}")
                    return answer
            return None

    return Workday("workday", "acme.wd5/External", [p["externalPath"].rsplit("_", 1)[1] for p in postings], paged=True)


def _jibe() -> Board:
    payload = fixture("jibe-jcpenney")
    jobs = payload["jobs"] * 2  # four jobs, two pages
    for index, job in enumerate(jobs):
        jobs[index] = {"data": {**job["data"], "req_id": f"R{index}", "slug": f"R{index}"}}

    class Jibe(Board):
        def answer(self, method, path, query, body):
            if path != "/api/jobs":
                return None
            page, limit = int(query.get("page", 1)), int(query.get("limit", 10))
            return {**payload, "totalCount": len(jobs), "count": len(jobs),
                    "jobs": jobs[(page - 1) * limit:page * limit]}

    return Jibe("jibe", "jobs.acme.example", [f"R{i}" for i in range(4)], paged=True)


def _manatal() -> Board:
    payload = fixture("manatal-ptc-group")
    results = payload["results"]

    class Manatal(Board):
        def answer(self, method, path, query, body):
            if path != "/open/v3/career-page/acme/jobs/":
                return None
            page = int(query.get("page", 1))
            chunk = results[(page - 1) * PAGE:page * PAGE]
            following = (f"https://core.api.manatal.com/open/v3/career-page/acme/jobs/?page={page + 1}"
                         if page * PAGE < len(results) else None)
            return {**payload, "count": len(results), "next": following, "results": chunk}

    return Manatal("manatal", "acme", [r["hash"] for r in results], paged=True)


def _radancy() -> Board:
    pages = _radancy_pages()
    ids = re.findall(r'<a href="[^"]+" data-job-id="(\d+)">', "".join(pages))

    class Radancy(Board):
        def answer(self, method, path, query, body):
            if path != "/fr/search-jobs/results":
                return None
            page = int(query.get("CurrentPage", 1))
            return {"filters": "", "results": pages[page - 1], "hasJobs": True} if page <= len(pages) else None

    return Radancy("radancy", "jobs.acme.example/fr", list(dict.fromkeys(ids)), paged=True)


def _teamtailor() -> Board:
    feed = fixture("teamtailor-leaseweb-feed")
    items = feed["items"]

    class Teamtailor(Board):
        def answer(self, method, path, query, body):
            if path != "/jobs.json":
                return None
            page = int(query.get("page", 1))
            answer = {**feed, "items": items[page - 1:page]}
            if page < len(items):
                answer["next_url"] = f"/jobs.json?page={page + 1}"
            return answer

    return Teamtailor("teamtailor", "acme",
                      [re.search(r"/jobs/(\d+)", i["url"]).group(1) for i in items], paged=True)


def _bamboohr() -> Board:
    listing = fixture("bamboohr-premise")
    detail = fixture("bamboohr-premise-job")
    details = {}
    for item in listing["result"]:
        answer = copy.deepcopy(detail)
        answer["result"]["jobOpening"].update(jobOpeningName=item["jobOpeningName"], location=item["location"],
                                              jobOpeningShareUrl=f"https://acme.bamboohr.com/careers/{item['id']}")
        details[f"/careers/{item['id']}/detail"] = answer
    return Single("bamboohr", "acme", [i["id"] for i in listing["result"]], "/careers/list", listing, details)


BOARDS = {
    "ashby": lambda: Single("ashby", "acme", [j["id"] for j in fixture("ashby-lightdash")["jobs"]],
                            "/posting-api/job-board/acme", fixture("ashby-lightdash")),
    "workday": _workday,
    "personio": lambda: Single("personio", "acme", re.findall(r"<id>(\d+)</id>", fixture("personio-rtc-rath")),
                               "/xml", fixture("personio-rtc-rath")),
    "teamtailor": _teamtailor,
    "bamboohr": _bamboohr,
    "breezy": lambda: Single("breezy", "acme", [p["id"] for p in fixture("breezy-matroid")], "/json",
                             fixture("breezy-matroid")),
    "pinpoint": lambda: Single("pinpoint", "acme", [p["id"] for p in fixture("pinpoint-jed")["data"]],
                               "/postings.json", fixture("pinpoint-jed")),
    "manatal": _manatal,
    "jibe": _jibe,
    "radancy": _radancy,
}


class ProviderServer(BackgroundServer):
    """Answers one board's endpoints (GET and POST); logs each request with its start time; anything else is 404."""

    def __init__(self, board: Board):
        self.board = board
        self.hits: list[tuple[float, str, str]] = []
        self.missing: set[str] = set()  # request targets (path?query, or path + POST offset) that answer 404
        self.challenge = False  # every answer is a bot challenge (Cloudflare's managed challenge)
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                self.reply("GET", {})

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.reply("POST", json.loads(raw or b"{}"))

            def reply(self, method, body):
                started = time.monotonic()
                target = self.path + (f" offset={body.get('offset')}" if method == "POST" else "")
                with server._lock:
                    server.hits.append((started, method, target))
                parts = urlsplit(self.path)
                query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
                found = None if target in server.missing else server.board.answer(method, parts.path, query, body)
                status = 404 if found is None else 200
                data = (found if isinstance(found, str) else json.dumps(found or {"error": "Not found"})).encode()
                if server.challenge and parts.path != "/robots.txt":
                    status, data = 403, b"<html><title>Just a moment...</title></html>"
                self.send_response(status)
                if server.challenge and parts.path != "/robots.txt":
                    self.send_header("cf-mitigated", "challenge")
                self.send_header("Content-Type", "application/xml" if isinstance(found, str) else "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._serve(ThreadingHTTPServer(("127.0.0.1", 0), Handler))


INTERVAL = 0.15  # the politeness interval these crawls keep between requests to the test host


def crawl_board(pool, server: ProviderServer, board_id: str | None = None, *settings: str, exit_code: int = 0):
    board = server.board
    source_id = f"{board.provider}-board"
    import_source(pool, {"id": source_id, "company": "Acme Test Employer", "status": "active",
                         "canonical_url": f"https://{board.provider}.acme.example/careers",
                         "strategies": [{"type": "ats", "provider": board.provider,
                                         "board_id": board_id or board.board_id}]}, server.url)
    overrides = dict(TEST_CRAWL_SETTINGS, ATS_BASE_URLS=json.dumps({board.provider: server.url}), ATS_PAGE_SIZE=PAGE,
                     POLITENESS_DOMAIN_POLICIES=json.dumps({"127.0.0.1": {"interval": INTERVAL}}))
    overrides.update(setting.split("=", 1) for setting in settings)
    result = crawl_in_process("ats", source_id, overrides)
    assert result.returncode == exit_code, f"crawl exit {result.returncode}:\n{result.stderr[-4000:]}"
    with pool.connection() as conn:
        jobs = conn.execute("SELECT external_id, title, fields FROM jobs ORDER BY id").fetchall()
        source = conn.execute("SELECT status, status_reason FROM sources").fetchone()
    return jobs, last_run(pool), source


@pytest.mark.parametrize("provider", sorted(BOARDS))
def test_each_provider_board_is_crawled_to_its_last_page_with_employers_and_the_interval_held(pool, provider):
    with ProviderServer(BOARDS[provider]()) as server:
        jobs, run, _ = crawl_board(pool, server)
        hits = list(server.hits)
    board = server.board
    assert sorted(j["external_id"] for j in jobs) == sorted(board.ids), (provider, [h[2] for h in hits])
    assert all(j["title"] and j["fields"].get("employer") for j in jobs)
    # The payload's employer where it names one, else the source's company (never null).
    assert run["outcome"] == "finished" and run["stats"]["gigflow/listing_pages"] >= (2 if board.paged else 1)
    starts = sorted(h[0] for h in hits)
    assert all(b - a >= INTERVAL * 0.9 for a, b in zip(starts, starts[1:])), (provider, starts)


def test_listings_without_text_are_filled_by_each_posting_detail(pool):
    with ProviderServer(_workday()) as server:
        jobs, _, _ = crawl_board(pool, server)
    assert jobs and all(j["fields"].get("description") for j in jobs)
    assert {j["fields"]["employer"] for j in jobs} == {"Motorola Solutions UK Limited"}  # the detail's own
    with ProviderServer(_bamboohr()) as server:
        crawl_board(pool, server)
    with pool.connection() as conn:
        rows = conn.execute("SELECT fields FROM jobs WHERE source_id = 'bamboohr-board'").fetchall()
    assert rows and all(r["fields"].get("description") and r["fields"]["employer"] == "Acme Test Employer" for r in rows)


@pytest.mark.parametrize("provider", sorted(BOARDS))
def test_a_board_answering_404_quarantines_the_source(pool, provider):
    missing = {"workday": "nosuch.wd5/External", "radancy": "nosuch.example/fr", "jibe": "nosuch.example"}
    with ProviderServer(BOARDS[provider]()) as server:
        server.board.answer = lambda *args: None  # the board is gone: every endpoint answers 404
        jobs, run, source = crawl_board(pool, server, missing.get(provider, "nosuchboard"))
        requests = len([h for h in server.hits if h[2] != "/robots.txt"])
    assert jobs == [] and run["outcome"] == "incomplete:board_missing" and requests == 1
    assert source["status"] == "quarantined" and "answered 404" in source["status_reason"]


@pytest.mark.parametrize("provider, second_page", [
    ("workday", "/wday/cxs/acme/External/jobs offset=2"),
    ("jibe", "/api/jobs?page=2&limit=2"),
    ("manatal", "/open/v3/career-page/acme/jobs/?page=2"),
    ("radancy", "/fr/search-jobs/results?ActiveFacetID=0&CurrentPage=2&RecordsPerPage=2"
                "&SearchResultsModuleName=Search+Results&SearchType=5"),
    ("teamtailor", "/jobs.json?page=2"),
])
def test_a_later_page_answering_404_leaves_the_run_incomplete_and_the_source_active(pool, provider, second_page):
    with ProviderServer(BOARDS[provider]()) as server:
        server.missing.add(second_page)
        jobs, run, source = crawl_board(pool, server)
        targets = [h[2] for h in server.hits]
    assert second_page in targets, targets
    assert run["outcome"] == "incomplete:page_missing" and source["status"] == "active"
    assert 0 < len(jobs) < len(server.board.ids)


@pytest.mark.parametrize("provider", ["workday", "ashby"])
def test_a_bot_challenge_stops_the_run_without_retrying_or_quarantining(pool, provider):
    with ProviderServer(BOARDS[provider]()) as server:
        server.challenge = True
        jobs, run, source = crawl_board(pool, server, exit_code=4)  # read nothing: rc 4 (#26)
        requests = [h for h in server.hits if h[2] != "/robots.txt"]
    assert jobs == [] and run["outcome"] == "incomplete:anti_bot" and len(requests) == 1
    assert source["status"] == "active"


def test_provider_hosts_have_their_own_politeness_budget():
    policies = Policies(30.0, POLITENESS_PROVIDER_POLICIES)
    for host in ("api.ashbyhq.com", "acme.wd5.myworkdayjobs.com", "acme.jobs.personio.de", "acme.teamtailor.com",
                 "acme.bamboohr.com", "acme.breezy.hr", "acme.pinpointhq.com", "core.api.manatal.com"):
        policy = policies.for_host(host)
        assert policy.key in POLITENESS_PROVIDER_POLICIES and policy.interval == 2.0, host
    # Two Workday tenants share one budget: one infrastructure answers both.
    assert policies.for_host("a.wd1.myworkdayjobs.com").key == policies.for_host("b.wd5.myworkdayjobs.com").key
