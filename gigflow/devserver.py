"""A small static HTTP server for fixture sites on 127.0.0.1 (the demo and the tests use it).

It logs each request's start time, path and Host header, so politeness can be checked from the server side.
"""

from __future__ import annotations

import functools
import logging
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

logger = logging.getLogger(__name__)


class FixtureHandler(SimpleHTTPRequestHandler):
    log_sink: list | None = None

    def log_message(self, format, *args):  # quiet: the request log below is what matters
        pass

    def send_head(self):
        if self.log_sink is not None:
            self.log_sink.append((time.time(), self.command, self.path, self.headers.get("Host", "")))
        return super().send_head()


def _report_error(request, client_address) -> None:
    """A request that failed, logged: a client that hung up (a crawl cancelled, a test's server shut down while a
    handler still writes) is no error. socketserver's default printed a traceback to stderr, into whatever command
    or test shared the process then."""
    error = sys.exc_info()[1]
    if isinstance(error, (ConnectionError, TimeoutError)):
        return
    logger.warning("request from %s failed", client_address, exc_info=True)


class BackgroundServer:
    """An HTTP server on a background thread, used as a context manager. Subclasses build ``self.httpd``."""

    httpd: ThreadingHTTPServer

    def _serve(self, httpd: ThreadingHTTPServer) -> None:
        self.httpd = httpd
        self.httpd.handle_error = _report_error
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()


class FixtureServer(BackgroundServer):
    """Serve ``root`` on ``host:port`` in a background thread; ``requests`` holds the request log."""

    def __init__(self, root: str | Path, host: str = "127.0.0.1", port: int = 0):
        self.requests: list[tuple[float, str, str, str]] = []
        handler = type("Handler", (FixtureHandler,), {"log_sink": self.requests})
        self._serve(ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(root))))
