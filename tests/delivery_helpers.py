"""The read API on a real uvicorn server (127.0.0.1, ephemeral port) in a thread, a small HTTP client, and jobs
written the way crawls and maintenance write them."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import threading
import time

from helpers import ROOT as ROOT_DIR, import_source

DESCRIPTION = ("You will build and run the systems our customers rely on every day. " * 6).strip()


class ApiServer:
    def __init__(self, pool, settings=None):
        from scrapy.utils.project import get_project_settings

        from gigflow.delivery.server import build

        self.settings = settings or get_project_settings()
        self.app = build(self.settings, "127.0.0.1", pool)

    def __enter__(self):
        import uvicorn

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning", lifespan="off"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the API server did not start"
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)

    def get(self, path: str, token: str | None = None, headers: dict | None = None) -> tuple[int, dict, object]:
        """(status, headers with lower-case names, JSON body or None). Asks for gzip and undoes it."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        sent = {"Accept-Encoding": "gzip", **(headers or {})}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        conn.request("GET", path, headers=sent)
        response = conn.getresponse()
        raw = response.read()
        got = {k.lower(): v for k, v in response.getheaders()}
        conn.close()
        if got.get("content-encoding") == "gzip":
            raw = gzip.decompress(raw)
        body = json.loads(raw) if raw and "json" in got.get("content-type", "") else raw.decode() or None
        return response.status, got, body


def add_source(pool, source_id: str, company: str = "Acme Works") -> None:
    import_source(pool, {"id": source_id, "company": company, "canonical_url": f"https://{source_id}.example/",
                         "strategies": [{"type": "feed", "feed_urls": [f"https://{source_id}.example/f.xml"]}]},
                  "https://acme.example")


def insert_job(conn, source_id: str, n: int, *, title: str = "Welder", employer: str = "Acme Works",
               location: str = "Berlin", description: str = DESCRIPTION, **fields) -> int:
    """A per-source job (as a crawl stores it) with a 'seen' event; its id."""
    url = f"https://{source_id}.example/jobs/{n}"
    all_fields = {"employer": employer, "location": location, "description": description,
                  "apply_url": url + "/apply", "date_posted": "2026-11-20", "valid_through": "2099-01-01", **fields}
    job_id = conn.execute(
        "INSERT INTO jobs (canonical_key, source_id, title, url, fields, confidence, parser_key, parser_version)"
        " VALUES (%s, %s, %s, %s, %s, 0.9, 'feed', '1') RETURNING id",
        (f"url:{url}", source_id, title, url, json.dumps(all_fields))).fetchone()["id"]
    conn.execute("INSERT INTO job_events (job_id, kind) VALUES (%s, 'seen')", (job_id,))
    return job_id


def publish(pool) -> None:
    """What the maintenance worker does after crawls: resolve, then the freshness sweep's publish gate."""
    from gigflow import api

    api.resolve()
    api.refresh()


def add_token(pool, name: str, *scopes: str) -> str:
    from gigflow.delivery import tokens

    return tokens.add(pool, name, list(scopes or ("jobs:read", "changes:read")))
