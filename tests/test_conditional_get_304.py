"""Conditional GET: validators from the stored version are sent; a 304 stores nothing and keeps the jobs."""

from scripted_server import Reply, ScriptedServer, site, source
from gigflow.sources.loader import parse_sources
from gigflow.sources.repository import import_sources
from helpers import crawl


def etag_site(state):
    pages = site("/cg", jobs=2)

    def route(path, headers):
        reply = pages(path, headers)
        if not path.startswith("/cg/jobs/"):
            return reply
        etag = f'"{state["version"]}"'
        if headers.get("If-None-Match") == etag:
            return Reply(status=304, body=b"", headers={"ETag": etag})
        body = reply.body.replace(b"</body>", f"<p>revision {state['version']}</p></body>".encode())
        return Reply(body=body, headers={**reply.headers, "ETag": etag,
                                         "Last-Modified": "Mon, 02 Nov 2026 10:00:00 GMT"})

    return route


def test_304_stores_no_new_version_and_a_change_does(pool):
    state = {"version": "v1"}
    with ScriptedServer(etag_site(state)) as server:
        import_sources(pool, parse_sources({"sources": [source("cg", server.url, "/cg")]}))
        crawl("href", "cg")
        with pool.connection() as conn:
            first = conn.execute("SELECT id, etag, last_modified FROM source_versions ORDER BY id").fetchall()
        crawl("href", "cg")
        with pool.connection() as conn:
            after_304 = conn.execute("SELECT gone_at, last_run_id FROM jobs").fetchall()
        state["version"] = "v2"
        crawl("href", "cg")
    assert [v["etag"] for v in first] == ['"v1"', '"v1"']
    second_run = [h for h in server.hits if h.path.startswith("/cg/jobs/")][2:4]
    assert all(h.headers.get("If-None-Match") == '"v1"' for h in second_run)
    assert all(h.headers.get("If-Modified-Since") == "Mon, 02 Nov 2026 10:00:00 GMT" for h in second_run)
    with pool.connection() as conn:
        runs = conn.execute("SELECT stats, outcome FROM crawl_runs ORDER BY id").fetchall()
        versions = conn.execute("SELECT etag FROM source_versions ORDER BY id").fetchall()
    not_modified = runs[1]["stats"]
    assert not_modified["gigflow/not_modified"] == 2 and not_modified["gigflow/versions_new"] == 0
    assert not_modified["gigflow/versions_unchanged"] == 2 and runs[1]["outcome"] == "finished"
    assert [v["etag"] for v in versions] == ['"v1"', '"v1"', '"v2"', '"v2"']  # the 304 run stored nothing
    assert runs[2]["stats"]["gigflow/versions_new"] == 2
    # the 304 run saw the jobs of the unchanged pages: not marked gone
    assert len(after_304) == 2 and all(j["gone_at"] is None and j["last_run_id"] == 2 for j in after_304)
