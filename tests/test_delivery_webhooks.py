"""Webhooks: a receiving server on 127.0.0.1 verifies each POST's HMAC signature; a batch it refuses is retried by
the procrastinate queue with the same delivery id until it accepts it; private targets need the guard's allowance."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from scrapy.settings import Settings

from delivery_helpers import add_source, insert_job, publish


class Receiver:
    """Answers POSTs with the queued statuses (then 200) and keeps what it got."""

    def __init__(self, statuses: list[int]):
        self.statuses, self.got = list(statuses), []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.got.append((dict(self.headers), body))
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/jobs"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def verified(secret: str, headers: dict, body: bytes) -> bool:
    """What a receiver does: recompute the signature over "<timestamp>.<body>" and compare in constant time."""
    expected = "sha256=" + hmac.new(secret.encode(), headers["X-Gigflow-Timestamp"].encode() + b"." + body,
                                    hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, headers["X-Gigflow-Signature"])


@pytest.fixture
def receiver():
    server = Receiver([500])
    yield server
    server.close()


def test_a_refused_batch_is_retried_through_the_queue_and_every_post_is_signed(pool, database_url, receiver):
    import procrastinate

    from gigflow.delivery import webhooks
    from gigflow.maintenance.worker import QUEUE
    from gigflow.safety.guard import FetchGuard
    from gigflow.settings import __dict__ as defaults

    with pytest.raises(webhooks.WebhookError, match="127.0.0.1"):  # loopback, not allowed by default
        webhooks.add(pool, "site", receiver.url, FetchGuard())
    settings = Settings({k: v for k, v in defaults.items() if k.isupper()})
    settings.set("FETCH_ALLOWED_PRIVATE_HOSTS", "127.0.0.1")
    settings.set("WEBHOOK_RETRY_BASE", 0)  # retry at once: the test does not wait for backoff
    secret = webhooks.add(pool, "site", receiver.url, FetchGuard.from_settings(settings))

    add_source(pool, "acme-feed")
    with pool.connection() as conn:
        for n in range(3):
            insert_job(conn, "acme-feed", n, title=f"Welder {n}")
    publish(pool)

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=database_url))
    webhooks.register(app, database_url, settings, QUEUE)
    with app.open():
        app.tasks["gigflow:webhooks_tick"].defer(timestamp=0)
        app.run_worker(queues=[QUEUE], wait=False, delete_jobs="never")
    with pool.connection() as conn:
        jobs = conn.execute("SELECT status, attempts FROM procrastinate_jobs"
                            " WHERE task_name = 'gigflow:deliver_webhook'").fetchall()
    # A delivery refused once (500) and accepted on its retry. (The periodic tick may have queued a second
    # delivery once the first was running: it finds nothing left to send.)
    assert all(j["status"] == "succeeded" for j in jobs) and max(j["attempts"] for j in jobs) == 2

    # The feed hands out only changes older than every transaction still running in the database (another test's,
    # an autovacuum's): on a busy machine the retry may find the batch not yet handed out again and end with
    # nothing sent; the next tick sends it, the same batch under the same delivery id.
    guard, deadline = FetchGuard.from_settings(settings), time.monotonic() + 10
    while len(receiver.got) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        webhooks.deliver(pool, "site", guard)
    assert len(receiver.got) == 2
    (first_headers, first_body), (headers, body) = receiver.got
    assert first_body == body and first_headers["X-Gigflow-Delivery"] == headers["X-Gigflow-Delivery"]
    assert all(verified(secret, h, b) for h, b in receiver.got)
    assert not verified("another secret", headers, body)
    batch = json.loads(body)
    assert sorted(c["kind"] for c in batch["changes"]) == ["created"] * 3 + ["published"] * 3
    assert batch["next"] == headers["X-Gigflow-Delivery"]
    [hook] = webhooks.listing(pool)
    assert hook.position == batch["next"] and hook.failures == 0 and hook.last_delivered_at

    # Nothing new: nothing sent. A change later: only that change.
    guard = FetchGuard.from_settings(settings)
    assert webhooks.deliver(pool, "site", guard) == {"batches": 0, "changes": 0}
    from gigflow.store import jobs as store_jobs

    with pool.connection() as conn:
        job_id = conn.execute("SELECT id FROM jobs WHERE title = 'Welder 1'").fetchone()["id"]
        store_jobs.insert_job_event(conn, job_id, None, "updated", ["salary"])
    # The feed hands out only changes older than every transaction still running in the database (a worker's, an
    # autovacuum's): on a busy machine the change comes a moment later, never lost nor skipped.
    sent, deadline = webhooks.deliver(pool, "site", guard), time.monotonic() + 10
    while sent == {"batches": 0, "changes": 0} and time.monotonic() < deadline:
        time.sleep(0.1)
        sent = webhooks.deliver(pool, "site", guard)
    assert sent == {"batches": 1, "changes": 1}
    last = json.loads(receiver.got[-1][1])["changes"]
    assert [(c["kind"], c["fields"], c["sighting_id"]) for c in last] == [("updated", ["salary"], job_id)]
