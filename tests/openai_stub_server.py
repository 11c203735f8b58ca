"""A real OpenAI-compatible chat completions server on 127.0.0.1 that tests script request by request.

Each request pops the next scripted reply (or uses ``default``). A reply is a function of the regions the request
carried (parsed from the user message) and returns (status, body) or sleeps first to force a client timeout.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from gigflow.devserver import BackgroundServer


def completion(content: str, prompt_tokens: int = 100, completion_tokens: int = 20) -> dict:
    return {"id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()), "model": "stub-model",
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}


def decide(policy):
    """A reply deciding each region with ``policy(region) -> (decision, reason)``."""
    def reply(regions):
        decisions = [{"id": r["id"], "decision": policy(r)[0], "reason": policy(r)[1]} for r in regions]
        return 200, completion(json.dumps({"decisions": decisions}))
    return reply


def decisions_json(make):
    """A reply whose decisions list is ``make(regions)`` (to script missing, duplicate, unknown ids or bad enums)."""
    return lambda regions: (200, completion(json.dumps({"decisions": make(regions)})))


def raw_content(content: str):
    return lambda regions: (200, completion(content))


def http_error(status: int = 500):
    return lambda regions: (status, {"error": {"message": "scripted failure", "type": "server_error"}})


def slow(seconds: float, then=None):
    """Sleep past the client's timeout, then answer (the client has given up by then)."""
    def reply(regions):
        time.sleep(seconds)
        return (then or decide(lambda r: ("keep", "late")))(regions)
    return reply


class OpenAIStub(BackgroundServer):
    def __init__(self, default=None):
        self.script: deque = deque()
        self.default = default or decide(lambda r: ("keep", "stub default: keep"))
        self.requests: list[dict] = []  # the parsed request bodies, in arrival order
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "{}")
                regions = json.loads(user).get("regions", [])
                with stub.lock:
                    stub.requests.append(body)
                    reply = stub.script.popleft() if stub.script else stub.default
                status, payload = reply(regions)
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
                    pass

        self.lock = threading.Lock()
        self._serve(ThreadingHTTPServer(("127.0.0.1", 0), Handler))

    def then(self, *replies) -> "OpenAIStub":
        self.script.extend(replies)
        return self

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def sent_regions(self) -> list[list[dict]]:
        return [json.loads(next(m["content"] for m in r["messages"] if m["role"] == "user"))["regions"]
                for r in self.requests]

