"""A scripted HTTP server on a loopback address for politeness tests and the crawl bench.

A route function answers each request; the server logs when each request started and finished (by its own
clock), so politeness is checked from the server's side, never from the crawler's word."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

from gigflow.devserver import BackgroundServer


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"})
    delay: float = 0.0  # seconds to hold the request open before answering


@dataclass(frozen=True)
class Hit:
    start: float
    end: float
    path: str
    host: str
    headers: dict[str, str]


Route = Callable[[str, dict[str, str]], Reply]


def site(prefix: str, jobs: int, robots: str = "User-agent: *\nAllow: /\n", job_delay: float = 0.0) -> Route:
    """A career site under ``prefix``: a listing of ``jobs`` cards linking to job pages, and robots.txt."""

    def route(path: str, headers: dict[str, str]) -> Reply:
        if path == "/robots.txt":
            return Reply(body=robots.encode(), headers={"Content-Type": "text/plain"})
        if path == f"{prefix}/":
            cards = "".join(f'<li class="job-card"><a href="{prefix}/jobs/{i}.html">Job {i}</a></li>' for i in range(jobs))
            return Reply(body=f"<html><body><ul>{cards}</ul></body></html>".encode())
        if path.startswith(f"{prefix}/jobs/"):
            title = f"Engineer {path.rsplit('/', 1)[-1].split('.')[0]}"
            posting = json.dumps({"@context": "https://schema.org", "@type": "JobPosting", "title": title,
                                  "hiringOrganization": {"@type": "Organization", "name": f"Company {prefix}"}})
            return Reply(body=f'<html><head><title>{title}</title><script type="application/ld+json">{posting}'
                              f"</script></head><body><h1>{title}</h1><p>Work on {prefix} things.</p></body></html>"
                              .encode(), delay=job_delay)
        return Reply(status=404, body=b"not found")

    return route


def source(source_id: str, base_url: str, prefix: str) -> dict:
    """The source configuration (as imported) for a ``site``."""
    return {"id": source_id, "company": f"Company {source_id}", "canonical_url": f"{base_url}{prefix}/",
            "status": "active",
            "strategies": [{"type": "href", "listing_urls": [f"{base_url}{prefix}/"], "card_selector": "li.job-card",
                            "job_url_patterns": [f"{prefix}/jobs/"]}]}


class ScriptedServer(BackgroundServer):
    def __init__(self, route: Route, host: str = "127.0.0.1", port: int = 0):
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes: with Nagle's algorithm on, the body of every reply on a
            # kept-alive connection waited for the client's delayed ACK of the headers (40 ms per request).
            disable_nagle_algorithm = True

            def log_message(self, format, *args):
                pass

            def do_GET(self):
                start = time.time()
                headers = {k: v for k, v in self.headers.items()}
                reply = server.route(self.path, headers)
                if reply.delay:
                    time.sleep(reply.delay)
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
                self.wfile.flush()
                with server._lock:
                    server.hits.append(Hit(start, time.time(), self.path, headers.get("Host", ""), headers))

        self.route = route
        self._serve(ThreadingHTTPServer((host, port), Handler))
