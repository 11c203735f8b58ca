"""Click politeness per request: the browser's own requests wait for the shared limiter, a click that makes no
request does not wait. Checked on the site's own clock (a scripted server on 127.0.0.1, real Chromium)."""

import json

from scripted_server import Reply, ScriptedServer
from helpers import crawl, import_source, last_run

INTERVAL = 2.0  # > CLICK_TIMEOUT below; the timing assertions are relative to it
# Items in click order: F fetches its detail from the site, I reveals a detail already in the page.
ITEMS = ["F1", "I1", "I2", "I3", "F2", "F3"]

LISTING = """<!doctype html><html><head><title>Roles</title></head><body>
<ul id="jobs">%s</ul><section id="detail"></section>
<script>
const inline = %s, DRAW_MS = %d;
for (const item of document.querySelectorAll("li.job")) {
  item.addEventListener("click", async () => {
    const id = item.dataset.jobId, detail = document.getElementById("detail");
    detail.innerHTML = "<p>Loading…</p>";  // a spinner first, while the detail is fetched
    const title = id in inline ? inline[id] : (await (await fetch("/detail/" + id + ".json")).json()).title;
    await new Promise(done => setTimeout(done, DRAW_MS));  // the page's own work on what it fetched
    detail.innerHTML = "<h1>" + title + "</h1><p>Build things in Utrecht. Full time.</p>";
  });
}
</script></body></html>"""


def route(path: str, headers: dict, draw_ms: int = 0) -> Reply:
    if path == "/robots.txt":
        return Reply(body=b"User-agent: *\nAllow: /\n", headers={"Content-Type": "text/plain"})
    if path == "/jobs.html":
        items = "".join(f'<li class="job" data-job-id="{i}">Role {i}</li>' for i in ITEMS)
        inline = {i: f"Inline engineer {i}" for i in ITEMS if i.startswith("I")}
        return Reply(body=(LISTING % (items, json.dumps(inline), draw_ms)).encode())
    if path.startswith("/detail/"):
        item = path.rsplit("/", 1)[1].split(".")[0]
        return Reply(body=json.dumps({"title": f"Fetched engineer {item}"}).encode(),
                     headers={"Content-Type": "application/json"})
    return Reply(status=404, body=b"not found")


def test_browser_requests_take_the_lease_and_clicks_without_requests_do_not_wait(pool):
    with ScriptedServer(route) as server:
        import_source(pool, {"id": "clicky", "company": "Clicky", "canonical_url": f"{server.url}/jobs.html",
                             "status": "active",
                             "strategies": [{"type": "click", "listing_url": f"{server.url}/jobs.html",
                                             "item_selector": "li.job", "detail_selector": "#detail"}]}, server.url)
        # A click timeout shorter than the interval: waiting for the site's turn is not the site being slow.
        crawl("click", "clicky", f"POLITENESS_MIN_INTERVAL={INTERVAL}", "CLICK_SETTLE=0.1", "CLICK_TIMEOUT=1.8",
              timeout=180)
        hits = sorted(server.hits, key=lambda hit: hit.start)
    with pool.connection() as conn:
        titles = sorted(r["title"] for r in conn.execute("SELECT title FROM jobs"))
    assert len(titles) == len(ITEMS) and sum(t.startswith("Fetched") for t in titles) == 3, titles  # no spinner
    fetches = {h.path: h for h in hits if h.path.startswith("/detail/")}
    assert sorted(fetches) == ["/detail/F1.json", "/detail/F2.json", "/detail/F3.json"]
    # Every request the site saw, the browser's included, started at least one interval after the one before.
    gaps = [b.start - a.start for a, b in zip(hits, hits[1:])]
    assert min(gaps) >= INTERVAL - 0.05, [(h.path, round(h.start, 2)) for h in hits]
    # Three clicks that fetched nothing lay between F1 and F2: they did not wait an interval each.
    assert fetches["/detail/F2.json"].start - fetches["/detail/F1.json"].start < 2.5 * INTERVAL
    stats = last_run(pool)["stats"]
    assert stats["gigflow/politeness/browser_requests"] == 3


def test_a_detail_fetched_from_a_slow_api_is_waited_for_not_captured_as_its_spinner(pool):
    # Each detail takes 1.2 s to answer: longer than four times CLICK_SETTLE, the allowance for requests that
    # never end (long polling). The fetch the click started is waited for; its "Loading…" spinner is not a job.
    # Then the page works on the answer for 0.3 s before drawing it: quiet counts from the fetch's end, not from
    # the spinner, or the spinner is still what is on screen when the fetch is done.
    def slow(path: str, headers: dict) -> Reply:
        reply = route(path, headers, draw_ms=300)
        return Reply(status=reply.status, body=reply.body, headers=reply.headers,
                     delay=1.2 if path.startswith("/detail/") else 0.0)

    with ScriptedServer(slow) as server:
        import_source(pool, {"id": "slowapi", "company": "Slow API", "canonical_url": f"{server.url}/jobs.html",
                             "status": "active",
                             "strategies": [{"type": "click", "listing_url": f"{server.url}/jobs.html",
                                             "item_selector": "li.job", "detail_selector": "#detail"}]}, server.url)
        crawl("click", "slowapi", "POLITENESS_MIN_INTERVAL=0", "CLICK_SETTLE=0.5", "CLICK_TIMEOUT=10", timeout=180)
    with pool.connection() as conn:
        titles = sorted(r["title"] for r in conn.execute("SELECT title FROM jobs"))
    assert titles == sorted(["Fetched engineer F1", "Fetched engineer F2", "Fetched engineer F3", "Inline engineer I1",
                             "Inline engineer I2", "Inline engineer I3"]), titles
