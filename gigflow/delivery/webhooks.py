"""Webhooks: each batch of changes POSTed to a receiver as JSON, signed, through the fetch guard, retried with
backoff by the maintenance queue (`scrapy jobs worker`).

A receiver follows the change feed from its own position, so what it gets is exactly the feed: nothing missed,
and a batch it did not accept (no 2xx) is sent again, the same batch with the same ``X-Gigflow-Delivery`` id,
until it does. Signature: ``X-Gigflow-Signature: sha256=<hex HMAC-SHA256 of "<X-Gigflow-Timestamp>.<body>">``
with the secret `scrapy api webhooks add` printed; a receiver checks it and the timestamp's age.

Sending runs in no database transaction (an open one would hold the change feed back for every reader) and under
a session advisory lock per webhook, so two workers never send one webhook's batches at once."""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import secrets
import socket
import ssl
import time
import zlib
from dataclasses import dataclass
from urllib.parse import urlsplit

from gigflow.db.queries import release_session_lock, try_session_lock
from gigflow.delivery import cursors, feed
from gigflow.delivery.tokens import NAME  # tokens and webhooks share the name rule
from gigflow.safety.guard import FetchGuard, UnsafeURL
from gigflow.store import delivery as store

_LOCK_BASE = 0x6769_7700  # advisory lock keys: this plus a CRC of the webhook's name


class WebhookError(Exception):
    pass


@dataclass(frozen=True)
class WebhookSettings:
    batch: int = 100            # WEBHOOK_BATCH: changes per POST
    timeout: float = 10.0       # WEBHOOK_TIMEOUT: seconds to connect and answer
    user_agent: str = "gigflow-webhook"

    @classmethod
    def from_settings(cls, settings) -> "WebhookSettings":
        return cls(batch=settings.getint("WEBHOOK_BATCH"), timeout=settings.getfloat("WEBHOOK_TIMEOUT"),
                   user_agent=settings.get("USER_AGENT") or cls.user_agent)


def sign(secret: str, timestamp: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()


def add(pool, name: str, url: str, guard: FetchGuard) -> str:
    """Register a receiver (it gets the changes from now on); returns its secret, shown once."""
    if not NAME.match(name or ""):
        raise WebhookError(f"webhook name {name!r}: use 1-64 letters, digits, '.', '_' or '-'")
    try:
        guard.check(url)
    except UnsafeURL as exc:
        raise WebhookError(f"{url}: {exc.reason}") from None
    secret = secrets.token_urlsafe(32)
    with pool.connection() as conn:
        position = cursors.feed_cursor(feed.head(conn))
        if not store.insert_webhook(conn, name, url, secret, position):
            raise WebhookError(f"a webhook named {name!r} exists (remove it first)")
    return secret


def remove(pool, name: str) -> None:
    with pool.connection() as conn:
        if not store.remove_webhook(conn, name):
            raise WebhookError(f"no webhook named {name!r} (`scrapy api webhooks list`)")


def listing(pool) -> list[store.WebhookListRow]:
    with pool.connection() as conn:
        return store.list_webhooks(conn)


def names(pool) -> list[str]:
    return [hook.name for hook in listing(pool)]


def deliver(pool, name: str, guard: FetchGuard, settings: WebhookSettings = WebhookSettings()) -> dict:
    """Send the webhook's pending changes, batch by batch, until none are left. Raises WebhookError (after
    recording it) when the receiver fails a batch: the queue retries later from the same position."""
    sent = {"batches": 0, "changes": 0}
    with pool.connection() as conn:
        conn.autocommit = True  # nothing below holds a transaction open across the POST
        try:
            key = _LOCK_BASE + zlib.crc32(name.encode())
            if not try_session_lock(conn, key):
                return {**sent, "busy": True}
            try:
                while True:
                    hook = store.webhook(conn, name)
                    if hook is None:
                        return {**sent, "removed": True}
                    changes, position = feed.page(conn, cursors.read_feed_cursor(hook.position), settings.batch)
                    following = cursors.feed_cursor(position)
                    if following == hook.position:
                        return sent
                    if changes:
                        body = json.dumps({"changes": [feed.change_payload(c) for c in changes], "next": following},
                                          default=str, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
                        try:
                            _post(hook.url, body, hook.secret, following, guard, settings)
                        except WebhookError as exc:
                            store.webhook_failed(conn, hook.id, str(exc)[:500])
                            raise
                        sent["batches"] += 1
                        sent["changes"] += len(changes)
                    store.webhook_delivered(conn, hook.id, hook.position, following, bool(changes))
            finally:
                release_session_lock(conn, key)
        finally:
            conn.autocommit = False


def _post(url: str, body: bytes, secret: str, delivery: str, guard: FetchGuard, settings: WebhookSettings) -> None:
    """POST to the address the guard approved (no second lookup, no redirects followed)."""
    try:
        address = guard.check(url)[0]
    except UnsafeURL as exc:
        raise WebhookError(f"refused by the fetch guard: {exc.reason}") from None
    parts = urlsplit(url)
    https = parts.scheme.lower() == "https"
    port = parts.port or (443 if https else 80)
    timestamp = str(int(time.time()))
    headers = {"Host": parts.netloc.rpartition("@")[2], "User-Agent": settings.user_agent,
               "Content-Type": "application/json", "X-Gigflow-Timestamp": timestamp,
               "X-Gigflow-Signature": sign(secret, timestamp, body), "X-Gigflow-Delivery": delivery,
               "Connection": "close"}
    try:
        sock = socket.create_connection((address, port), timeout=settings.timeout)
        try:
            if https:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=parts.hostname)
            conn = http.client.HTTPConnection(parts.hostname or "", port, timeout=settings.timeout)
            conn.sock = sock
            conn.request("POST", (parts.path or "/") + (f"?{parts.query}" if parts.query else ""), body, headers)
            response = conn.getresponse()
            response.read(65536)
        finally:
            sock.close()
    except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
        raise WebhookError(f"{exc.__class__.__name__}: {exc}"[:300]) from None
    if not 200 <= response.status < 300:
        raise WebhookError(f"the receiver answered {response.status}")


def register(app, conninfo: str, settings, queue: str) -> None:
    """The webhook tasks on a procrastinate app: a tick every WEBHOOK_CRON defers one delivery per webhook (at most
    one waiting per webhook); a failed delivery is retried with exponential backoff."""
    import procrastinate
    from procrastinate.exceptions import AlreadyEnqueued

    from gigflow.db import get_pool

    retry = procrastinate.RetryStrategy(max_attempts=settings.getint("WEBHOOK_MAX_ATTEMPTS"),
                                        exponential_wait=settings.getint("WEBHOOK_RETRY_BASE"),
                                        retry_exceptions={WebhookError})

    def deliver_webhook(name: str) -> None:
        deliver(get_pool(conninfo), name, FetchGuard.from_settings(settings), WebhookSettings.from_settings(settings))

    task = app.task(name="gigflow:deliver_webhook", queue=queue, retry=retry)(deliver_webhook)

    def webhooks_tick(timestamp: int) -> None:
        for name in names(get_pool(conninfo)):
            try:
                task.configure(queueing_lock=f"webhook:{name}").defer(name=name)
            except AlreadyEnqueued:
                pass  # one is waiting (or retrying) already

    tick = app.task(name="gigflow:webhooks_tick", queue=queue, queueing_lock="webhooks-tick")(webhooks_tick)
    app.periodic(cron=settings.get("WEBHOOK_CRON"))(tick)
