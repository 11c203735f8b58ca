"""An HTTP/1.1 server on 127.0.0.1 that answers the first request on each connection (kept alive) and resets
the connection (TCP RST, no response) when a second request arrives on it: a server dropping idle kept-alive
connections, seen from the client. It logs every request's arrival by its own clock."""

from __future__ import annotations

import socket
import socketserver
import struct
import threading
import time
from dataclasses import dataclass
from typing import Callable

from gigflow.devserver import BackgroundServer


@dataclass(frozen=True)
class Arrival:
    time: float
    path: str
    connection: int
    reset: bool  # this request was answered by a reset


class ResetSecondRequestServer(BackgroundServer):
    def __init__(self, route: Callable[[str], tuple[int, str, bytes]], host: str = "127.0.0.1"):
        self.arrivals: list[Arrival] = []
        lock = threading.Lock()
        counter = iter(range(1, 1_000_000))
        server = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self):
                with lock:
                    connection = next(counter)
                served = 0
                while True:
                    request_line = self.rfile.readline(65537)
                    if not request_line:
                        return
                    while self.rfile.readline(65537) not in (b"\r\n", b"\n", b""):
                        pass  # headers (GET only: no body)
                    path = request_line.split()[1].decode("latin-1")
                    reset = served >= 1
                    with lock:
                        server.arrivals.append(Arrival(time.time(), path, connection, reset))
                    if reset:
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                        self.connection.close()
                        return
                    status, content_type, body = route(path)
                    self.wfile.write(f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}"
                                     "\r\nConnection: keep-alive\r\n\r\n".encode() + body)
                    self.wfile.flush()
                    served += 1

        class Server(socketserver.ThreadingTCPServer):
            allow_reuse_address = True
            daemon_threads = True

        self._serve(Server((host, 0), Handler))
