"""The review app in headless Chromium against `scrapy ui` (a real uvicorn server) on the test database, filled
by a real crawl of the demo site (one of its pages made hostile) and a real noise review (rules classifier)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from helpers import FIXTURES, ROOT, copy_site, crawl, import_demo, scrapy_command

CHROMIUM = os.environ.get("CLICK_CHROMIUM_PATH", "/usr/bin/chromium")
BEACON = "/beacon/"  # any request for this path means a stored page's script or handler ran
HOSTILE = f"""
<script>document.title = "pwned"; fetch("{BEACON}script");</script>
<img src="{BEACON}img.png" onerror="fetch('{BEACON}onerror')" alt="team">
<p><a href="javascript:fetch('{BEACON}js-link')">Apply in one click</a></p>
<iframe srcdoc="&lt;script&gt;fetch('{BEACON}srcdoc')&lt;/script&gt;"></iframe>
<svg onload="fetch('{BEACON}svg')"><circle r="4"/></svg>
"""


def expect(locator):
    from playwright.sync_api import expect

    return expect(locator)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_ui(port: int, env: dict | None = None, args: tuple = ()) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "scrapy", "ui", "--port", str(port), *args], cwd=ROOT,
                               env={**os.environ, **(env or {})}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            if process.poll() is not None:
                raise AssertionError(f"scrapy ui exited: {process.stdout.read()}")
            time.sleep(0.2)
    process.kill()
    raise AssertionError("scrapy ui did not start in 30 s")


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def _settings():
    from scrapy.settings import Settings

    from gigflow import settings as project

    values = Settings()
    values.setmodule(project)
    values.setdict({"POLITENESS_MIN_INTERVAL": 0, "FETCH_ALLOWED_PRIVATE_HOSTS": ["127.0.0.1"],
                    "LINKCHECK_TIMEOUT": 2.0})
    return values


@pytest.fixture(scope="module")
def demo(database_url, tmp_path_factory):
    """The demo site crawled (support-engineer.html carries scripts and handlers), its noise filter learned."""
    from gigflow.db import get_pool
    from gigflow.devserver import FixtureServer
    from gigflow.noise.learn.lifecycle.review_learner import make_learner
    from gigflow.noise.learn.lifecycle.review import ReviewKind, run_review
    from gigflow.noise.learn.settings import NoiseSettings
    from gigflow.sources.repository import get_source

    pool = get_pool(database_url)
    with pool.connection() as conn:
        tables = [r["tablename"] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'")]
        conn.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " RESTART IDENTITY CASCADE")
    root = tmp_path_factory.mktemp("site")
    with FixtureServer(root) as server:
        copy_site(FIXTURES / "sites" / "demo", root / "demo", server.url)
        hostile = root / "demo" / "jobs" / "support-engineer.html"
        hostile.write_text(hostile.read_text().replace("<h1>", HOSTILE + "<h1>", 1))
        import_demo(pool, server)
        crawl("href", "demo")
        configuration_id = get_source(pool, "demo").configuration_id
        outcome = run_review(pool, configuration_id, ReviewKind.manual, make_learner(NoiseSettings(), "rules"))
        assert outcome.status == "saved", outcome.detail
        # job maintenance as its worker does it: canonical jobs, link checks against the site, the publish gate
        from gigflow import api
        maintenance = _settings()
        api.resolve(settings=maintenance)
        with pool.connection() as conn:
            canonical_ids = [r["id"] for r in conn.execute("SELECT id FROM canonical_jobs")]
        api.check_links(canonical_ids, settings=maintenance)
        api.refresh(settings=maintenance)
        port = _free_port()
        ui = _start_ui(port)
        try:
            yield {"pool": pool, "base": f"http://127.0.0.1:{port}", "configuration_id": configuration_id,
                   "server": server, "site": root / "demo"}
        finally:
            _stop(ui)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM if Path(CHROMIUM).exists() else None, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


def _version(pool, url_part: str) -> int:
    with pool.connection() as conn:
        return conn.execute("SELECT id FROM source_versions WHERE url LIKE %s", (f"%{url_part}",)).fetchone()["id"]


def _stored_filter(pool, configuration_id: int) -> dict:
    with pool.connection() as conn:
        return conn.execute("SELECT config -> 'noiseFilter' AS f, token FROM configurations WHERE id = %s",
                            (configuration_id,)).fetchone()


def test_every_page_loads_without_console_errors_and_the_filters_update_the_table(demo, page):
    base, pool = demo["base"], demo["pool"]
    with pool.connection() as conn:
        job_id = conn.execute("SELECT id FROM jobs WHERE title = 'Data Analyst'").fetchone()["id"]
    pages = {"/": "Sources", "/sources/demo": "Runs", f"/jobs/{job_id}": "Fields and evidence",
             f"/configurations/{demo['configuration_id']}/noise": "Noise review"}
    for path, heading in pages.items():
        response = page.goto(base + path)
        assert response.status == 200, path
        assert heading in page.content(), path
        page.wait_for_load_state("networkidle")
    assert page.errors == []

    page.goto(base + "/sources/demo")
    assert page.locator("svg.chart rect[fill='#2e8b57']").count() >= 1  # new jobs drawn for the first run
    assert "li.job-card" in page.locator("pre.config").inner_text()  # the configuration as stored

    page.goto(base + f"/jobs/{job_id}")
    salary_row = page.locator("table.fields tr", has_text="salary")
    assert "jsonld" in salary_row.inner_text() and "script[0].baseSalary" in salary_row.inner_text()
    title_mark = page.locator("article.markdown h1 mark")
    assert title_mark.inner_text() == "Data Analyst"  # the title's value, marked where the Markdown holds it
    assert title_mark.get_attribute("title").startswith("title: jsonld")

    # history, canonical job with its sightings, link checks, quality score parts and publish state
    assert page.locator("table.events .kind").first.inner_text() == "seen"
    with pool.connection() as conn:
        canonical = conn.execute("SELECT c.* FROM canonical_jobs c JOIN canonical_links l ON l.canonical_id = c.id "
                                 "WHERE l.job_id = %s", (job_id,)).fetchone()
    assert f"canonical job #{canonical['id']}" in page.locator("#canonical").inner_text()
    assert page.locator("table.sightings tr.current").count() == 1
    assert page.locator("#link-status").inner_text() == canonical["link_status"]
    checks = page.locator("table.link-checks tbody tr").all_inner_texts()  # the demo's apply URLs answer 404
    assert any(c.startswith("job URL") and "\tok" in c for c in checks), checks
    assert any(c.startswith("apply URL") and "\tsuspect" in c for c in checks), checks
    for part in ("completeness", "evidence", "freshness"):
        assert page.locator(f"[data-part={part}]").inner_text() == str(canonical["quality_parts"][part])
    assert str(canonical["quality_score"]) in page.locator(".score").inner_text()
    state = page.locator("#publish-state").inner_text()
    assert state.startswith("published" if canonical["published_at"] else "not published")

    page.goto(base + "/sources/demo")
    assert page.locator("#source-health").inner_text() == "ok"
    assert page.locator("table.runs td.outcome").first.inner_text().startswith("finished")
    assert page.locator("svg.chart polyline.confidence").count() == 1  # mean confidence over the runs

    page.goto(base + "/")
    assert page.locator("#source-rows tr", has_text="demo").locator("td.health").inner_text().startswith("ok")
    page.fill("input[name=q]", "northwind")
    expect(page.locator("#source-rows")).to_contain_text("Northwind")  # (locators: the CSP forbids eval)
    page.select_option("select[name=status]", "quarantined")
    expect(page.locator("#source-rows")).to_contain_text("no sources match")
    assert "status=quarantined" in page.url  # the filter is in the address, so it can be shared and reloaded
    assert page.errors == []


def test_noise_review_outlines_every_learned_region_with_its_decision(demo, page):
    stored = _stored_filter(demo["pool"], demo["configuration_id"])["f"]
    version = _version(demo["pool"], "data-analyst.html")
    page.goto(f"{demo['base']}/configurations/{demo['configuration_id']}/noise?version={version}")
    frame = page.frame_locator("iframe.stored")
    labels = frame.locator("gigflow-label").all_inner_texts()
    assert len(stored["rules"]) >= 2
    for i, rule in enumerate(stored["rules"], 1):
        region = frame.locator(f"[data-gigflow-rule='{i}']")
        assert region.count() == 1, rule["selector"]
        assert region.get_attribute("data-gigflow-decision") == rule["decision"]
        assert any(label.startswith(f"#{i} {rule['decision']} · {rule['selector']} · {rule['classifier']}")
                   and rule["reason"] in label for label in labels), (rule, labels)
    # the Markdown beside it: the template lines the filter removes are marked, job facts are not
    removed = page.locator("pre.diff .removed").all_inner_texts()
    assert any("About us" in line for line in removed)
    assert not any("Salary" in line for line in removed)
    assert page.errors == []


def test_a_flipped_decision_is_saved_race_safely_and_visible_after_reload(demo, browser, page):
    pool, configuration_id = demo["pool"], demo["configuration_id"]
    before = _stored_filter(pool, configuration_id)
    url = f"{demo['base']}/configurations/{configuration_id}/noise"
    stale = browser.new_page()  # a second reviewer with the page open from before the flip
    stale.goto(url)
    page.goto(url)
    row = page.locator("tr.rule", has=page.locator("code", has_text="aside"))
    assert row.locator(".decision").inner_text() == "remove"
    row.locator("input[name=note]").fill("the other-jobs list helps candidates")
    row.locator("button").click()
    page.wait_for_selector(".flash-message")
    assert "is now keep" in page.locator(".flash-message").inner_text()

    page.reload()
    row = page.locator("tr.rule", has=page.locator("code", has_text="aside"))
    assert row.locator(".decision").inner_text() == "keep"
    assert row.locator(".classifier").inner_text() == "manual"
    assert "the other-jobs list helps candidates" in row.locator(".reason").inner_text()
    frame = page.frame_locator("iframe.stored")
    index = row.get_attribute("data-rule")
    assert frame.locator(f"[data-gigflow-rule='{index}']").get_attribute("data-gigflow-decision") == "keep"
    after = _stored_filter(pool, configuration_id)
    assert after["token"] == before["token"] + 1
    [aside] = [r for r in after["f"]["rules"] if r["selector"] == "aside"]
    assert (aside["decision"], aside["classifier"]) == ("keep", "manual")

    # the stale page's form carries the old token: the save refuses and nothing changes
    stale_row = stale.locator("tr.rule").first
    stale_row.locator("button").click()
    stale.wait_for_selector(".flash-message")
    assert "not saved: token moved" in stale.locator(".flash-message").inner_text()
    assert _stored_filter(pool, configuration_id)["f"] == after["f"]
    stale.close()
    assert page.errors == []


def test_a_stored_page_with_scripts_never_runs_them(demo, page):
    pool, base, server = demo["pool"], demo["base"], demo["server"]
    version = _version(pool, "support-engineer.html")
    with pool.connection() as conn:
        assert b"<script>document.title" in bytes(conn.execute(
            "SELECT b.body FROM source_versions v JOIN bodies b ON b.sha256 = v.sha256 WHERE v.id = %s", (version,)).fetchone()["body"])
        job_id = conn.execute("SELECT id FROM jobs WHERE source_version_id = %s", (version,)).fetchone()["id"]
    sample = f"{base}/configurations/{demo['configuration_id']}/noise/sample/{version}"
    page.goto(f"{base}/configurations/{demo['configuration_id']}/noise?version={version}")
    iframe = page.locator("iframe.stored")
    assert iframe.get_attribute("sandbox") == ""  # no scripts, no same origin, no forms, no popups
    frame = page.frame_locator("iframe.stored")
    assert frame.locator("h1").inner_text() == "Customer Support Engineer"
    assert frame.locator("script, iframe, svg, [onerror], [onload], [src], [href]").count() == 0
    response = page.goto(sample)  # even opened on its own, the page is sandboxed by its CSP
    csp = response.headers["content-security-policy"]
    assert csp.startswith("sandbox;") and "default-src 'none'" in csp and "script-src" not in csp
    page.goto(f"{base}/jobs/{job_id}")
    assert page.locator("article.markdown a[href^='javascript']").count() == 0
    assert "Apply in one click" in page.locator("article.markdown").inner_text()
    page.wait_for_timeout(300)
    assert [path for _, _, path, _ in server.requests if BEACON in path] == []
    assert page.title() != "pwned"


def test_actions_need_csrf_and_call_the_library(demo, page):
    pool, base = demo["pool"], demo["base"]
    request = urllib.request.Request(f"{base}/sources/demo/quarantine", data=b"reason=forged", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403

    def act(button: str, reason: str):
        page.goto(base + "/sources/demo")
        page.fill("input[name=reason]", reason)
        page.click(f"form.status-actions button:has-text('{button}')")
        page.wait_for_load_state("networkidle")

    def last_event() -> dict:
        with pool.connection() as conn:
            return conn.execute("SELECT from_status, to_status, reason, actor FROM source_status_events "
                                "WHERE source_id = 'demo' ORDER BY id DESC LIMIT 1").fetchone()

    # each action is #15's transition: the status changes and the event records who and why
    act("quarantine", "site moved to a new ATS")
    assert page.locator("h1 .badge").inner_text() == "quarantined"
    assert page.locator(".status-reason").inner_text() == "site moved to a new ATS"
    assert (last_event()["from_status"], last_event()["to_status"]) == ("active", "quarantined")
    assert last_event()["actor"].startswith("person")
    act("restore", "the new ATS board is configured")
    assert (last_event()["to_status"], last_event()["reason"]) == ("trial", "the new ATS board is configured")
    act("promote", "trial runs look right")
    assert (last_event()["from_status"], last_event()["to_status"], last_event()["reason"]) == (
        "trial", "active", "trial runs look right")
    assert page.locator("table.history tbody tr").first.inner_text().endswith("trial runs look right")
    act("record policy review", "terms allow crawling; robots.txt checked")
    assert page.locator(".policy-note").inner_text() == "terms allow crawling; robots.txt checked"
    # a transition the state does not allow is refused with the command's reason, nothing changes
    page.goto(base + "/sources/demo")
    assert page.locator("form.status-actions button:has-text('promote')").count() == 0  # active: nothing above
    with pool.connection() as conn:
        events = conn.execute("SELECT count(*) AS n FROM source_status_events").fetchone()["n"]
    csrf = page.locator("input[name=csrf]").first.get_attribute("value")
    refused = page.request.post(base + "/sources/demo/promote", form={"csrf": csrf, "reason": "again"})
    assert refused.status == 400 and "already active" in refused.text()
    with pool.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM source_status_events").fetchone()["n"] == events
    page.click("button:has-text('request noise review')")
    page.wait_for_selector(".flash-message")
    assert "review" in page.locator(".flash-message").inner_text()
    with pool.connection() as conn:
        assert conn.execute("SELECT status FROM sources WHERE id = 'demo'").fetchone()["status"] == "active"
        jobs = conn.execute("SELECT count(*) AS n FROM procrastinate_jobs WHERE status = 'todo'").fetchone()["n"]
    assert jobs >= 1
    assert page.errors == []


def test_binding_beyond_loopback_needs_a_token_and_the_token_is_checked(demo):
    refused = scrapy_command("ui", "--host", "0.0.0.0", "--port", "1", env={"GIGFLOW_UI_TOKEN": ""}, timeout=60)
    assert refused.returncode == 2 and "set a token first" in refused.stderr
    assert "Traceback" not in refused.stderr

    port = _free_port()
    ui = _start_ui(port, {"GIGFLOW_UI_TOKEN": "s3cret-token"})
    try:
        base = f"http://127.0.0.1:{port}"
        with pytest.raises(urllib.error.HTTPError) as unauthorised:
            urllib.request.urlopen(base + "/sources/demo", timeout=10)
        assert unauthorised.value.code == 401
        with pytest.raises(urllib.error.HTTPError) as wrong:
            urllib.request.urlopen(base + "/?token=guess", timeout=10)
        assert wrong.value.code == 401
        authorised = urllib.request.Request(base + "/sources/demo", headers={"Authorization": "Bearer s3cret-token"})
        with urllib.request.urlopen(authorised, timeout=10) as response:
            assert response.status == 200 and b"Runs" in response.read()
    finally:
        _stop(ui)


def test_drift_shows_in_the_table_the_chart_and_the_run_reasons(demo, page):
    """The listing keeps one job card of several: the next crawl's outcome, health and drift reasons reach every view."""
    pool, base = demo["pool"], demo["base"]
    listing = demo["site"] / "index.html"
    head, cards = listing.read_text().split('class="job-card"', 1)
    listing.write_text(head + 'class="job-card"' + cards.replace('class="job-card"', 'class="retired-card"'))
    crawl("href", "demo", "HEALTH_DRIFT_MIN_RUNS=1")  # one complete run before: enough history here
    with pool.connection() as conn:
        run = conn.execute("SELECT r.id, r.outcome, h.drift FROM crawl_runs r LEFT JOIN run_health h ON h.run_id = r.id"
                           " WHERE r.source_id = 'demo' ORDER BY r.id DESC LIMIT 1").fetchone()
        status = conn.execute("SELECT status, status_reason FROM sources WHERE id = 'demo'").fetchone()
    assert run["outcome"] == "incomplete:drift" and status["status"] == "drifting"
    [drift] = run["drift"]
    page.goto(base + "/sources/demo")
    assert page.locator("#source-health").inner_text() == "drifting: volume_change"
    assert page.locator(".status-reason").inner_text() == status["status_reason"]
    first = page.locator("table.runs tbody tr").first
    assert first.locator("td.outcome").inner_text().startswith("incomplete:drift")
    assert "volume_change: " + drift["reason"] in first.locator("td.drift").inner_text()
    assert page.locator("svg.chart text.drift-mark").count() == 1  # the drifted run marked on the chart
    assert "job volume drop" in page.locator("svg.chart text.drift-mark title").text_content()
    assert page.locator("table.history tbody tr").first.locator(".badge").inner_text() == "drifting"
    assert page.locator("form.status-actions button:has-text('restore')").count() == 1
    page.goto(base + "/?status=drifting")
    row = page.locator("#source-rows tr", has_text="demo")
    assert row.locator("td.health").inner_text().startswith("drifting: volume_change")
    assert page.errors == []


def test_a_tossed_csrf_cookie_from_another_port_is_refused(demo, browser):
    """Cookies ignore ports: a page on another port of 127.0.0.1 sets gigflow_csrf=TOSSED and posts csrf=TOSSED.
    Refused in a fresh browser and in one holding the app's real cookie (the app's own POSTs: the test above)."""
    from scripted_server import Reply, ScriptedServer

    pool, base = demo["pool"], demo["base"]
    attack = (f'<html><body><form id="f" method="POST" action="{base}/sources/demo/quarantine">'
              '<input name="csrf" value="TOSSED"><input name="reason" value="tossed"></form><script>'
              'document.cookie = "gigflow_csrf=TOSSED; path=/";'
              'document.cookie = "gigflow_csrf=TOSSED; path=/sources/demo";'
              'document.getElementById("f").submit();</script></body></html>').encode()

    def tossed() -> int:
        with pool.connection() as conn:
            return conn.execute("SELECT count(*) AS n FROM source_status_events "
                                "WHERE reason = 'tossed'").fetchone()["n"]

    with ScriptedServer(lambda path, headers: Reply(body=attack)) as evil:
        for had_real_cookie in (False, True):
            context = browser.new_context()
            page = context.new_page()
            if had_real_cookie:
                page.goto(base + "/sources/demo")
            answers = []
            page.on("response", lambda r: answers.append(r.status) if r.url.endswith("/quarantine") else None)
            page.goto(evil.url + "/attack.html")
            page.wait_for_url(base + "/sources/demo/quarantine")
            page.wait_for_load_state()
            assert answers == [403], answers
            assert tossed() == 0
            context.close()
    # the token alone (no browser headers to go by): a session value of the attacker's choosing has no valid token
    forged = urllib.request.Request(f"{base}/sources/demo/quarantine", data=b"csrf=TOSSED&reason=tossed",
                                    headers={"Cookie": "gigflow_csrf=" + "T" * 43}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(forged, timeout=10)
    assert refused.value.code == 403 and tossed() == 0


def test_error_answers_carry_the_security_headers_and_no_traceback(demo):
    base = demo["base"]
    for path, statuses in [("/no-such-page", {404}), ("/sources/%00", {400, 404}), ("/?q=%00", {400}),
                           ("/jobs/99999999999999999999", {404, 500})]:
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(base + path, timeout=10)
        error = answer.value
        body = error.read().decode("utf-8", "replace")
        assert error.code in statuses, (path, error.code, body[:300])
        assert "Traceback" not in body and "psycopg" not in body, path
        assert error.headers.get("Content-Security-Policy", "").startswith("default-src 'none'"), path
        assert error.headers.get("X-Content-Type-Options") == "nosniff", path
        assert error.headers.get("X-Frame-Options") == "DENY", path


def test_the_access_token_never_reaches_the_access_log(demo):
    port = _free_port()
    ui = _start_ui(port, {"GIGFLOW_UI_TOKEN": "s3cret-token"}, ("-s", "UI_LOG_LEVEL=info"))
    try:
        subprocess.run([sys.executable, "-c", "import urllib.request as u\n"
                        f"try: u.urlopen('http://127.0.0.1:{port}/?token=s3cret-token&q=x', timeout=10)\n"
                        "except Exception: pass"], timeout=30)
    finally:
        _stop(ui)
    access = [line for line in ui.stdout.read().splitlines() if '"GET ' in line]  # (the start line shows it)
    assert any("GET /?token=***&q=x" in line for line in access), access
    assert not any("s3cret-token" in line for line in access), access


def test_bidi_overrides_and_escapes_are_shown_not_obeyed(demo):
    pool, base = demo["pool"], demo["base"]
    with pool.connection() as conn:
        job = conn.execute("SELECT id, title FROM jobs WHERE title = 'Data Analyst'").fetchone()
        conn.execute("UPDATE jobs SET title = %s WHERE id = %s", ("Analyst \u202egnp.exe\x1b[2J", job["id"]))
    try:
        with urllib.request.urlopen(f"{base}/jobs/{job['id']}", timeout=10) as response:
            page = response.read().decode("utf-8")
    finally:
        with pool.connection() as conn:
            conn.execute("UPDATE jobs SET title = %s WHERE id = %s", (job["title"], job["id"]))
    assert "Analyst \ufffdgnp.exe" in page
    assert "\u202e" not in page and "\x1b" not in page
def test_pages_read_well_fields_wrap_legend_clears_chart_rules_grouped_payload_jobs_own_markdown(demo, page):
    """Issue #26: salary as text, nothing escaped, no empty rows, the evidence path wraps, the legend clears the
    chart, noise rules grouped by region (selector on demand), same-titled jobs told apart, an ATS job's own
    Markdown (never the board payload)."""
    base, pool = demo["base"], demo["pool"]
    with pool.connection() as conn:
        analyst = conn.execute("SELECT * FROM jobs WHERE title = 'Data Analyst'").fetchone()
    page.set_viewport_size({"width": 1000, "height": 900})
    page.goto(f"{base}/jobs/{analyst['id']}")
    fields = page.locator("table.fields")
    salary = fields.locator("tr", has_text="salary").locator("td.value").inner_text()
    assert "–" in salary and "EUR" in salary and "{" not in salary and '\\"' not in salary, salary
    assert "\\u" not in fields.inner_text()
    assert all(v.strip() not in ("{}", "[]", "") for v in fields.locator("td.value").all_inner_texts())
    right = fields.bounding_box()["x"] + fields.bounding_box()["width"]
    for cell in fields.locator("td.path").all():
        box = cell.bounding_box()
        assert box["x"] + box["width"] <= right + 1  # wrapped inside the table, not off the page

    page.goto(f"{base}/sources/demo")
    chart, legend = page.locator("svg.chart").bounding_box(), page.locator("figcaption.legend").bounding_box()
    assert legend["y"] >= chart["y"] + chart["height"]  # below the bars, never over them

    page.goto(f"{base}/configurations/{demo['configuration_id']}/noise")
    groups = page.locator("section.rule-group")
    assert groups.count() >= 1
    first = groups.first.locator("tr.rule").first
    assert first.get_attribute("class") == "rule remove"  # removals first in a region with removals
    selector = first.locator("details.selector code")
    assert not selector.is_visible()
    first.locator("details.selector summary").click()
    assert selector.is_visible()

    with pool.connection() as conn:
        twin = conn.execute(
            "INSERT INTO jobs (canonical_key, source_id, source_version_id, title, url, fields, confidence, parser_key,"
            " parser_version) VALUES ('url:twin', 'demo', %s, 'Data Analyst', %s, '{\"location\": \"Liège, BE\"}', "
            "0.9, 'jsonld', '1') RETURNING id", (analyst["source_version_id"], analyst["url"] + "?twin")).fetchone()
        board = conn.execute(
            "INSERT INTO jobs (canonical_key, source_id, source_version_id, title, url, fields, confidence, parser_key,"
            " parser_version) VALUES ('id:gh-1', 'demo', %s, 'Board Job', 'https://boards.example/1', '{}', 0.9, "
            "'greenhouse', '1'), ('id:gh-2', 'demo', %s, 'Board Job Two', 'https://boards.example/2', '{}', 0.9, "
            "'greenhouse', '1') RETURNING id", (analyst["source_version_id"],) * 2).fetchall()
        conn.execute("INSERT INTO job_documents (job_id, source_version_id, evidence_path, markdown) VALUES "
                     "(%s, %s, 'jobs[0].content', '# Board Job\n\nOwn words of this job.')",
                     (board[0]["id"], analyst["source_version_id"]))
    try:
        page.goto(f"{base}/sources/demo")
        rows = page.locator("table.grid tr", has_text="Data Analyst").all_inner_texts()
        assert len(rows) == 2 and rows[0] != rows[1] and any("Liège" in r for r in rows), rows
        page.goto(f"{base}/jobs/{board[0]['id']}")
        assert "Own words of this job." in page.locator("article.markdown").inner_text()
        assert "Salary" not in page.locator("article.markdown").inner_text()  # not the page it was read from
        page.goto(f"{base}/jobs/{board[1]['id']}")
        assert page.locator("article.markdown").count() == 0
        assert "scrapy jobs resolve" in page.locator("#markdown-origin").inner_text()
    finally:
        with pool.connection() as conn:
            conn.execute("DELETE FROM jobs WHERE id = ANY(%s)", ([twin["id"]] + [b["id"] for b in board],))
    assert page.errors == []


def test_try_a_source_from_the_app(demo, page):
    """The app offers `scrapy sources try` for a pasted URL; this app runs without FETCH_ALLOWED_PRIVATE_HOSTS, so
    the fixture site on 127.0.0.1 is refused, and the page says so and what to set."""
    base = demo["base"]
    page.goto(base + "/")
    page.click("nav.top >> text=try a source")
    page.fill("textarea[name=target]", f"{demo['server'].url}/demo/index.html")
    page.fill("input[name=pages]", "1")
    with page.expect_navigation(timeout=180_000):  # a crawl in its own process: seconds, a minute under load
        page.click("form.try-form button", no_wait_after=True)
    warnings = page.locator("#try-warnings").inner_text()
    assert "FETCH_ALLOWED_PRIVATE_HOSTS" in warnings, warnings
    assert "type: href" in page.locator("#try-source-file").inner_text()
    with demo["pool"].connection() as conn:  # nothing of it in the real database
        assert conn.execute("SELECT count(*) AS n FROM sources").fetchone()["n"] == 1
    page.fill("textarea[name=target]", "not a url and not yaml: [")
    with page.expect_navigation(timeout=180_000):
        page.click("form.try-form button", no_wait_after=True)
    expect(page.locator("#try-error")).to_contain_text("source")
    assert [e for e in page.errors if "status of 400" not in e] == []  # the refused input answers 400
