"""Source lifecycle, health and drift over real HTTP (a scripted 127.0.0.1 site) and a real PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gigflow.health.antibot import challenge_kind
from gigflow.health.drift import DriftSettings, detect_drift, missing_title_url, tracking_parameters
from scripted_server import Reply, ScriptedServer

from helpers import FIXTURES, crawl_sequence, scrapy_command

CHALLENGES = FIXTURES / "challenges"


class Board:
    """A mutable career site under /<name>/: a listing of cards linking to JSON-LD job pages. Tests change its
    attributes between crawls to produce each symptom."""

    def __init__(self, name: str, jobs: int = 6):
        self.name = name
        self.jobs = [f"{name}-{i}" for i in range(jobs)]
        self.card = '<li class="job-card"><a href="{href}">{title}</a></li>'
        self.wrapper = '<ul class="jobs">{cards}</ul>'
        self.query = ""  # appended to job links (a tracking parameter)
        self.jsonld = True
        self.details = True  # location and employment type in the JSON-LD
        self.filled = False  # job pages say nothing about a job
        self.job_status = {}  # slug -> (status, headers, body)

    def title(self, slug: str) -> str:
        return f"Engineer {slug}"

    def listing(self) -> bytes:
        cards = "".join(self.card.format(href=f"/{self.name}/jobs/{slug}.html{self.query}", title=self.title(slug))
                        for slug in self.jobs)
        return f"<html><body><h1>Jobs</h1>{self.wrapper.format(cards=cards)}</body></html>".encode()

    def job(self, slug: str) -> Reply:
        if slug in self.job_status:
            status, headers, body = self.job_status[slug]
            return Reply(status=status, headers=headers, body=body)
        title = self.title(slug)
        if self.filled:
            return Reply(body=b"<html><head><title>Careers</title></head><body><p>Filled.</p></body></html>")
        posting = {"@context": "https://schema.org", "@type": "JobPosting", "title": title,
                   "hiringOrganization": {"@type": "Organization", "name": "Acme"},
                   "description": "<p>Build robots with a friendly team.</p>", "datePosted": "2026-11-01"}
        if self.details:
            posting["jobLocation"] = {"@type": "Place", "address": {"@type": "PostalAddress",
                                                                   "addressLocality": "Berlin"}}
            posting["employmentType"] = "FULL_TIME"
        script = f'<script type="application/ld+json">{json.dumps(posting)}</script>' if self.jsonld else ""
        return Reply(body=f"<html><head><title>{title}</title>{script}</head><body><h1>{title}</h1>"
                          f"<p>Location: Berlin</p><p>Work on things.</p></body></html>".encode())

    def source(self, base: str, status: str = "active") -> dict:
        return {"id": self.name, "company": "Acme", "canonical_url": f"{base}/{self.name}/", "status": status,
                "strategies": [{"type": "href", "listing_urls": [f"{base}/{self.name}/"],
                                "card_selector": "li.job-card", "job_url_patterns": [f"/{self.name}/jobs/"]}]}


def serve(*boards: Board) -> ScriptedServer:
    by_name = {b.name: b for b in boards}

    def route(path: str, headers: dict) -> Reply:
        if path == "/robots.txt":
            return Reply(body=b"User-agent: *\nDisallow: /private/\n", headers={"Content-Type": "text/plain"})
        parts = path.split("?", 1)[0].strip("/").split("/")
        board = by_name.get(parts[0])
        if board is None:
            return Reply(status=404, body=b"not found")
        if len(parts) == 1:
            return Reply(body=board.listing())
        return board.job(parts[-1].removesuffix(".html"))

    return ScriptedServer(route)


def import_boards(pool, server, *boards: Board, status: str = "active") -> None:
    from gigflow.sources.loader import parse_sources
    from gigflow.sources.repository import import_sources

    import_sources(pool, parse_sources({"sources": [b.source(server.url, status) for b in boards]}))


def one(pool, sql: str, *params):
    with pool.connection() as conn:
        return conn.execute(sql, params).fetchone()


def all_rows(pool, sql: str, *params):
    with pool.connection() as conn:
        return conn.execute(sql, params).fetchall()


def last_health(pool, source: str) -> dict:
    return one(pool, "SELECT r.id, r.outcome, h.health, h.drift, h.complete FROM crawl_runs r "
                     "JOIN run_health h ON h.run_id = r.id WHERE r.source_id = %s ORDER BY r.id DESC LIMIT 1", source)


def next_crawl_in(pool, source: str) -> float:
    return one(pool, "SELECT extract(epoch FROM next_crawl_at - now())::float AS s FROM sources WHERE id = %s",
               source)["s"]


def sources_cli(*args: str):
    return scrapy_command("sources", *args)


# -- drift: one detector per symptom, each against the source's own recent complete runs -------------------

def test_each_drift_detector_marks_its_source_drifting_and_a_drifting_run_marks_nothing_gone(pool):
    boards = {name: Board(name) for name in ("empty", "density", "confidence", "status", "volume", "churn",
                                             "ctype", "steady")}
    with serve(*boards.values()) as server:
        import_boards(pool, server, *boards.values())
        baseline = [("href", name) for name in boards for _ in range(2)]
        assert crawl_sequence(*baseline, timeout=400) == [0] * len(baseline)
        boards["empty"].filled = True
        boards["density"].details = False
        boards["confidence"].jsonld = False
        boards["status"].job_status = {"status-0": (410, {"Content-Type": "text/html"}, b"gone")}
        boards["volume"].jobs = boards["volume"].jobs + [f"volume-new-{i}" for i in range(12)]
        boards["churn"].query = "?src=board7"
        boards["ctype"].job_status = {"ctype-1": (200, {"Content-Type": "text/plain"}, b"Engineer ctype-1")}
        assert crawl_sequence(*[("href", name) for name in boards], timeout=300) == [0] * len(boards)

    expected = {"empty": "empty_result", "density": "field_density_drop", "confidence": "confidence_drop",
                "status": "new_error_status", "volume": "volume_change", "churn": "key_churn",
                "ctype": "new_content_type"}
    for name, detector in expected.items():
        run = last_health(pool, name)
        found = {d["detector"]: d for d in run["drift"]}
        assert detector in found, (name, run["outcome"], run["drift"])
        state = one(pool, "SELECT status, status_reason FROM sources WHERE id = %s", name)
        assert state["status"] == "drifting" and found[detector]["reason"] in state["status_reason"], state
        # Nothing was marked gone by the drifting run, though the churned and emptied runs saw none of the jobs.
        assert one(pool, "SELECT count(*) AS n FROM jobs WHERE source_id = %s AND gone_at IS NOT NULL", name)["n"] == 0
        assert not run["complete"]
    assert last_health(pool, "churn")["outcome"] == "incomplete:drift"
    assert "src" in {d["detector"]: d for d in last_health(pool, "churn")["drift"]}["key_churn"]["figures"]["strip_parameters"]
    steady = last_health(pool, "steady")
    assert steady["outcome"] == "finished" and steady["drift"] == [] and steady["complete"]
    health = steady["health"]
    assert health["jobs"] == 6 and health["field_density"]["location"] == 1.0 and health["mean_confidence"] >= 0.9
    assert health["status_codes"]["200"] >= 7 and health["content_types"] == {"text/html": 7}
    empty = last_health(pool, "empty")["health"]
    assert empty["pages_without_job"] == 6 and "no recognisable title" in empty["without_job"][0]["reason"]
    events = all_rows(pool, "SELECT from_status, to_status, actor FROM source_status_events WHERE source_id = 'churn'")
    assert events == [{"from_status": None, "to_status": "active", "actor": "import"},
                      {"from_status": "active", "to_status": "drifting", "actor": "gigflow"}]


def test_detectors_on_health_figures():
    history = [{"jobs": 10, "field_density": {"title": 1.0, "url": 1.0, "location": 0.9}, "mean_confidence": 0.9,
                "status_codes": {"200": 11}, "content_types": {"text/html": 11}}] * 2
    current = {"jobs": 10, "field_density": {"title": 1.0, "url": 0.5, "location": 0.9}, "mean_confidence": 0.9,
               "status_codes": {"200": 11}, "content_types": {"text/html": 11}}
    assert missing_title_url(current, history, DriftSettings()).figures == {"url": 0.5}
    assert [d.detector for d in detect_drift(current, history)] == ["field_density_drop", "missing_title_url"]
    assert detect_drift(history[0], history) == [] and detect_drift(current, []) == []
    assert tracking_parameters([["https://x.test/j/1?id=1", "https://x.test/j/1?id=1&utm_source=feed&session=ab"],
                                ["https://x.test/j/2?id=2", "https://x.test/j/2?id=2&session=cd"],
                                ["https://x.test/j/3?id=3", "https://x.test/j/3?session=ef&id=3"]]) == ["session"]


# -- transitions: commands with reasons and history; automatic promotion with evidence --------------------------

def test_candidate_earns_trial_then_active_with_evidence_and_people_change_status_with_reasons(pool):
    board = Board("acme", jobs=3)
    with serve(board) as server:
        import_boards(pool, server, board, status="candidate")
        refused = sources_cli("promote", "acme", "--reason", "looks fine")
        assert refused.returncode == 2 and "no policy/terms review" in refused.stderr, refused.stderr
        assert sources_cli("promote", "acme").returncode == 2  # --reason is required
        # The review reads robots.txt (one guarded, polite GET): the reviewed candidate starts its trial at once.
        noted = sources_cli("policy", "acme", "--reviewed", "--note", "terms allow indexing; robots allows /acme/",
                            "-s", "FETCH_ALLOWED_PRIVATE_HOSTS=127.0.0.1", "-s", "POLITENESS_MIN_INTERVAL=0")
        assert noted.returncode == 0 and "now trial" in noted.stdout, noted.stdout + noted.stderr
        assert [hit.path for hit in server.hits] == ["/robots.txt"]
        step = ("href", "acme", {"SOURCE_TRIAL_RUNS": 2})
        assert crawl_sequence(step) == [0]
        # A trial source is crawled less often: SOURCE_TRIAL_INTERVAL_FACTOR (3) times the adaptive interval.
        assert one(pool, "SELECT status FROM sources")["status"] == "trial"
        assert 3 * 86400 - 60 < next_crawl_in(pool, "acme") <= 3 * 86400
        assert crawl_sequence(step) == [0]
    events = all_rows(pool, "SELECT from_status, to_status, reason, evidence FROM source_status_events "
                            "WHERE source_id = 'acme' ORDER BY id")
    assert [(e["from_status"], e["to_status"]) for e in events] == [(None, "candidate"), ("candidate", "trial"),
                                                                    ("trial", "active")]
    assert events[1]["evidence"]["robots"][f"{server.url}/acme/"]["allowed"] is True
    assert [r["jobs"] for r in events[2]["evidence"]["runs"]] == [3, 3]
    assert all(r["mean_confidence"] >= 0.6 for r in events[2]["evidence"]["runs"])

    assert sources_cli("quarantine", "acme", "--reason", "terms changed").returncode == 0
    assert sources_cli("promote", "acme", "--reason", "x").returncode == 2
    restored = sources_cli("restore", "acme", "--reason", "terms fine again")
    assert restored.stdout.strip().endswith("quarantined -> trial (terms fine again)"), restored.stdout
    shown = json.loads(sources_cli("show", "acme", "--json").stdout)
    assert shown["status"] == "trial" and shown["policy"]["note"].startswith("terms allow")
    assert [h["to_status"] for h in shown["history"]][:3] == ["trial", "quarantined", "active"]
    assert shown["history"][0]["actor"].startswith("person")
    listed = json.loads(sources_cli("list", "--json").stdout)
    assert listed[0]["status"] == "trial" and listed[0]["health"] == "ok" and listed[0]["last_outcome"] == "finished"
    assert listed[0]["configuration_id"] and listed[0]["jobs"] == 3
    assert "unknown source 'nope'" in sources_cli("show", "nope").stderr


def test_a_failed_run_retries_sooner_with_backoff(pool):
    board = Board("flaky", jobs=2)
    board.job_status = {"flaky-0": (500, {"Content-Type": "text/html"}, b"oops")}
    with serve(board) as server:
        import_boards(pool, server, board)
        delays = []
        for _ in range(2):
            assert crawl_sequence(("href", "flaky", {"RETRY_TIMES": 0, "POLITENESS_BACKOFF_BASE": 1})) == [0]
            delays.append(next_crawl_in(pool, "flaky"))
    runs = all_rows(pool, "SELECT outcome FROM crawl_runs WHERE source_id = 'flaky' ORDER BY id")
    assert [r["outcome"] for r in runs] == ["incomplete:fetch_failed"] * 2
    # SOURCE_RETRY_BASE, doubled for the second failure in a row; never CRAWL_BASE_INTERVAL (a day) later.
    assert 840 < delays[0] <= 900 and 1740 < delays[1] <= 1800, delays


# -- anti-bot ---------------------------------------------------------------------------------------------------

def _saved(path: Path) -> tuple[int, dict, bytes]:
    lines = path.with_suffix(".headers").read_text().splitlines()
    headers = {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
    return int(lines[0].split()[1]), headers, path.read_bytes()


@pytest.mark.parametrize("page", sorted(p.name for p in CHALLENGES.glob("*.html")))
def test_challenge_detector_on_saved_pages(page):
    status, headers, body = _saved(CHALLENGES / page)
    kind = challenge_kind(status, headers, body)
    if page.startswith("negative-"):
        assert kind is None
    else:
        assert kind is not None and kind.split("-")[0] in page, kind


def test_a_bot_challenge_stops_the_run_is_never_stored_and_repeated_ones_quarantine(pool):
    board = Board("walled", jobs=5)
    status, headers, body = _saved(CHALLENGES / "cloudflare-interstitial.html")
    board.job_status = {slug: (status, {"Content-Type": headers["content-type"], "cf-mitigated": "challenge"}, body)
                        for slug in board.jobs}
    # A short politeness back-off: the second run need not wait the default 10 s after the first one's challenge.
    settings = {"SOURCE_QUARANTINE_AFTER": 2, "CONCURRENT_REQUESTS": 1, "POLITENESS_BACKOFF_BASE": 1}
    with serve(board) as server:
        import_boards(pool, server, board)
        assert crawl_sequence(("href", "walled", settings), ("href", "walled", settings)) == [0, 0]
        job_hits = [h for h in server.hits if "/jobs/" in h.path]
    runs = all_rows(pool, "SELECT outcome, stats FROM crawl_runs WHERE source_id = 'walled' ORDER BY id")
    assert [r["outcome"] for r in runs] == ["incomplete:anti_bot"] * 2
    assert runs[0]["stats"]["gigflow/anti_bot_kind"] == "cloudflare" and runs[0]["stats"]["gigflow/anti_bot_backoff_s"] > 0
    assert len(job_hits) <= 4  # each run stopped at its first challenge (one more may have been in flight)
    stored = one(pool, "SELECT count(*) AS n FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256 "
                 "WHERE v.source_id = 'walled' AND b.body = %s", body)
    assert stored["n"] == 0
    state = one(pool, "SELECT status, status_reason FROM sources WHERE id = 'walled'")
    assert state["status"] == "quarantined" and "bot challenge (cloudflare)" in state["status_reason"]


# -- safe repair on stored listing snapshots ------------------------------------------------------------------

def test_repair_finds_the_variant_for_renamed_classes_on_the_snapshot_and_applies_it(pool):
    board = Board("renamed", jobs=8)
    with serve(board) as server:
        import_boards(pool, server, board)
        assert crawl_sequence(("href", "renamed"), ("href", "renamed")) == [0, 0]
        board.card = '<li class="vacancy-tile tile--v2"><a href="{href}">{title}</a></li>'
        board.wrapper = '<div class="grid"><ul class="vacancies">{cards}</ul></div><ul class="nav"><li><a href="/renamed/about">About</a></li></ul>'
        assert crawl_sequence(("href", "renamed")) == [0]
        assert one(pool, "SELECT outcome FROM crawl_runs ORDER BY id DESC LIMIT 1")["outcome"] == "incomplete:empty_listing"

        dry = json.loads(sources_cli("repair", "renamed", "--json").stdout)
        assert dry["applied"] is False and dry["target_links"] == 8
        best = dry["variants"][0]
        assert best["reproduced"] == 1.0 and best["precision"] == 1.0, dry["variants"][:3]
        # The renamed card itself (by one of its new class tokens), one card per job link.
        assert ("vacancy-tile" in best["selector"] or "tile--v2" in best["selector"]) and best["cards"] == 8, best
        assert dry["configured_result"]["reproduced"] == 0.0
        before = one(pool, "SELECT config_hash, token FROM configurations")
        applied = sources_cli("repair", "renamed", "--apply")
        assert "applied as a new configuration" in applied.stdout, applied.stdout + applied.stderr
        after = one(pool, "SELECT config_hash, token, strategies FROM configurations")
        assert after["token"] == before["token"] + 1 and after["config_hash"] != before["config_hash"]
        assert after["strategies"][0]["card_selector"] == best["selector"]
        assert crawl_sequence(("href", "renamed")) == [0]
    assert one(pool, "SELECT outcome FROM crawl_runs ORDER BY id DESC LIMIT 1")["outcome"] == "finished"
    event = one(pool, "SELECT to_status, reason FROM source_status_events ORDER BY id DESC LIMIT 1")
    assert "repair applied" in event["reason"]


def test_repair_refuses_when_no_variant_reproduces_enough(pool):
    board = Board("shrunk", jobs=10)
    with serve(board) as server:
        import_boards(pool, server, board)
        assert crawl_sequence(("href", "shrunk")) == [0]
        board.jobs = board.jobs[:5]  # half the links are gone from the snapshot: no variant reproduces 90%
        board.card = '<li class="other"><a href="{href}">{title}</a></li>'
        assert crawl_sequence(("href", "shrunk")) == [0]
        result = sources_cli("repair", "shrunk", "--apply")
    assert "no variant reproduces 90%" in result.stdout and "applied" not in result.stdout.split("\n")[-2]
    assert one(pool, "SELECT strategies FROM configurations")["strategies"][0]["card_selector"] == "li.job-card"
    assert "no href strategy" not in sources_cli("repair", "nope").stderr  # unknown source: a clear error
    assert "unknown source" in sources_cli("repair", "nope").stderr


# -- status rules that fit the evidence ---------------------------------------------------------------------------

def test_a_sitemap_run_that_finds_no_sitemap_reads_an_old_robots_copy_again(pool):
    state = {"robots": "User-agent: *\nAllow: /\n"}
    sitemap = "<urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>{}</urlset>"
    job = Board("sm", jobs=2)

    def route(path: str, headers: dict) -> Reply:
        if path == "/robots.txt":
            return Reply(body=state["robots"].encode(), headers={"Content-Type": "text/plain"})
        if path == "/sitemap.xml":
            urls = "".join(f"<url><loc>{server.url}/sm/jobs/{slug}.html</loc></url>" for slug in job.jobs)
            return Reply(body=sitemap.format(urls).encode(), headers={"Content-Type": "application/xml"})
        if path.startswith("/sm/jobs/"):
            return job.job(path.rsplit("/", 1)[-1].removesuffix(".html"))
        return Reply(status=404, body=b"not found")

    with ScriptedServer(route) as server:
        from gigflow.sources.loader import parse_sources
        from gigflow.sources.repository import import_sources

        import_sources(pool, parse_sources({"sources": [{
            "id": "sm", "company": "Acme", "canonical_url": f"{server.url}/", "status": "active",
            "strategies": [{"type": "sitemap", "job_url_patterns": ["/sm/jobs/"]}]}]}))
        assert crawl_sequence(("sitemap", "sm")) == [0]  # robots.txt read fresh: no sitemap, nothing to refresh
        state["robots"] += f"Sitemap: {server.url}/sitemap.xml\n"
        with pool.connection() as conn:
            conn.execute("UPDATE robots_cache SET fetched_at = now() - interval '2 hours'")
        assert crawl_sequence(("sitemap", "sm")) == [0]
        robots_reads = [h for h in server.hits if h.path == "/robots.txt"]
    runs = all_rows(pool, "SELECT outcome, stats FROM crawl_runs ORDER BY id")
    assert runs[0]["outcome"] == "incomplete:empty_listing" and "gigflow/robots_refreshed" not in runs[0]["stats"]
    assert runs[1]["outcome"] == "finished" and runs[1]["stats"]["gigflow/robots_refreshed"] == 1
    assert len(robots_reads) == 2
    assert "Sitemap:" in one(pool, "SELECT body FROM robots_cache")["body"]
    assert one(pool, "SELECT count(*) AS n FROM jobs")["n"] == 2
