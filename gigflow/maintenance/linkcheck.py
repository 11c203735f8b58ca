"""Link checks of canonical jobs' job and apply URLs: HEAD (GET when HEAD is refused), every hop through the
fetch guard and the shared politeness limiter, the answer classified. An outage is not evidence of closure: a
link is broken only when two checks at least LINKCHECK_CONFIRM_HOURS apart both failed."""

from __future__ import annotations

import http.client
import math
import socket
import ssl
import time
from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

from psycopg_pool import ConnectionPool

from gigflow.maintenance import canonical
from gigflow.maintenance.canonical import CheckTarget
from gigflow.politeness.keys import Policies, registrable_domain
from gigflow.politeness.limiter import Backoff, Lease, Limiter
from gigflow.safety.guard import FetchGuard, UnresolvableHost, UnsafeURL

UNVERIFIABLE = frozenset({401, 403, 405, 429})
HEAD_REFUSED = frozenset({400, 403, 405, 501})
BROKEN = frozenset({404, 410})
SEVERITY = {"unchecked": 0, "ok": 1, "unverifiable": 2, "redirected": 3, "broken": 4}


@dataclass(frozen=True)
class LinkCheckSettings:
    timeout: float = 15.0           # LINKCHECK_TIMEOUT
    confirm_hours: float = 6.0      # LINKCHECK_CONFIRM_HOURS
    interval_hours: float = 24.0    # LINKCHECK_INTERVAL_HOURS
    tick_seconds: float = 600.0     # LINKCHECK_TICK_SECONDS (the sweep's period)
    max_redirects: int = 5          # LINKCHECK_MAX_REDIRECTS
    user_agent: str = "gigflow-linkcheck"
    max_sleep: float = 5.0          # POLITENESS_MAX_SLEEP
    claim_seconds: float = 900.0    # LINKCHECK_CLAIM_SECONDS (a claimed job not checked by then is due again)

    @classmethod
    def from_settings(cls, settings) -> "LinkCheckSettings":
        return cls(timeout=settings.getfloat("LINKCHECK_TIMEOUT"),
                   confirm_hours=settings.getfloat("LINKCHECK_CONFIRM_HOURS"),
                   interval_hours=settings.getfloat("LINKCHECK_INTERVAL_HOURS"),
                   tick_seconds=settings.getfloat("LINKCHECK_TICK_SECONDS"),
                   max_redirects=settings.getint("LINKCHECK_MAX_REDIRECTS"),
                   user_agent=settings.get("USER_AGENT") or "gigflow-linkcheck",
                   max_sleep=settings.getfloat("POLITENESS_MAX_SLEEP"),
                   claim_seconds=settings.getfloat("LINKCHECK_CLAIM_SECONDS"))


class KeyBusy(Exception):
    """The politeness key stayed leased (a crawl is using it): no evidence either way, check again later."""


@dataclass(frozen=True)
class Answer:
    outcome: str  # ok | unverifiable | redirected | broken | refused (the fetch guard said no) | deferred (key busy)
    method: str | None = None
    status: int | None = None
    target: str | None = None
    error: str | None = None


def classify(status: int) -> str:
    if status in UNVERIFIABLE:
        return "unverifiable"
    if status in BROKEN or status >= 500:
        return "broken"
    if 200 <= status < 400:
        return "ok"
    return "unverifiable"  # other 4xx: the server answers but will not say


class Fetcher:
    """One HEAD/GET at a time per politeness key, to the address the guard approved (no second DNS lookup)."""

    def __init__(self, limiter: Limiter, policies: Policies, guard: FetchGuard, settings: LinkCheckSettings):
        self.limiter, self.policies, self.guard, self.settings = limiter, policies, guard, settings

    def check(self, url: str) -> Answer:
        site = registrable_domain(urlsplit(url).hostname or "")
        for _ in range(self.settings.max_redirects + 1):
            try:
                method, status, location = self._head_then_get(url)
            except UnresolvableHost as exc:  # the site is gone (or DNS is down): confirmed like any failure
                return Answer("broken", error=exc.reason)
            except UnsafeURL as exc:
                return Answer("refused", error=exc.reason)
            except KeyBusy as exc:
                return Answer("deferred", error=str(exc))
            except (OSError, http.client.HTTPException, ssl.SSLError) as exc:
                return Answer("broken", error=f"{exc.__class__.__name__}: {exc}"[:300])
            if status in (301, 302, 303, 307, 308) and location:
                target = urljoin(url, location)
                if registrable_domain(urlsplit(target).hostname or "") != site:
                    return Answer("redirected", method, status, target=target)
                url = target
                continue
            return Answer(classify(status), method, status)
        return Answer("unverifiable", error="too many redirects")

    def read(self, url: str, max_bytes: int = 512 * 1024) -> tuple[int, str]:
        """GET one small text resource (a robots.txt), each redirect hop through the guard and the limiter.
        Raises UnsafeURL, KeyBusy, OSError or http.client.HTTPException when it cannot be read."""
        for _ in range(self.settings.max_redirects + 1):
            status, location, body = self._request("GET", url, max_bytes)
            if status in (301, 302, 303, 307, 308) and location:
                url = urljoin(url, location)
                continue
            return status, body.decode("utf-8", errors="replace")
        raise http.client.HTTPException(f"more than {self.settings.max_redirects} redirects")

    def _head_then_get(self, url: str) -> tuple[str, int, str | None]:
        status, location, _ = self._request("HEAD", url)
        if status in HEAD_REFUSED:
            get_status, get_location, _ = self._request("GET", url)
            return "GET", get_status, get_location
        return "HEAD", status, location

    def _request(self, method: str, url: str, max_bytes: int = 65536) -> tuple[int, str | None, bytes]:
        parts = urlsplit(url)
        addresses = self.guard.check(url)
        policy = self.policies.for_host(parts.hostname or "")
        lease = self._acquire(policy, url)
        try:
            status, location, body = self._send(method, parts, addresses[0], max_bytes)
        except (OSError, http.client.HTTPException):
            self.limiter.record_failure(policy.key)
            raise
        finally:
            self.limiter.release(lease)
        if status == 429 or status >= 500:
            self.limiter.record_failure(policy.key)
        else:
            self.limiter.record_success(policy.key)
        return status, location, body

    def _acquire(self, policy, url: str) -> Lease:
        deadline = time.monotonic() + max(60.0, self.settings.timeout * 4)
        while True:
            got = self.limiter.try_acquire(policy, url)
            if isinstance(got, Lease):
                return got
            if time.monotonic() > deadline:
                raise KeyBusy(f"politeness key {policy.key} stayed busy")
            time.sleep(min(got, self.settings.max_sleep) or self.limiter.poll_seconds)

    def _send(self, method: str, parts, address: str, max_bytes: int = 65536) -> tuple[int, str | None, bytes]:
        host = parts.hostname or ""
        https = parts.scheme.lower() == "https"
        port = parts.port or (443 if https else 80)
        sock = socket.create_connection((address, port), timeout=self.settings.timeout)
        try:
            if https:
                sock = ssl.create_default_context().wrap_socket(sock, server_hostname=host)
            conn = http.client.HTTPConnection(host, port, timeout=self.settings.timeout)
            conn.sock = sock
            path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            conn.request(method, path, headers={"Host": parts.netloc.rpartition("@")[2],
                                                "User-Agent": self.settings.user_agent, "Accept": "*/*",
                                                "Connection": "close"})
            response = conn.getresponse()
            status, location = response.status, response.getheader("Location")
            body = response.read(max_bytes) if method == "GET" else b""  # a link check only needs to see it answer
            return status, location, body
        finally:
            sock.close()


def batch_size(total: int, settings: LinkCheckSettings) -> int:
    """Canonical jobs per sweep tick so that each is checked once per interval, spread over the ticks."""
    ticks = max(1.0, settings.interval_hours * 3600 / settings.tick_seconds)
    return max(1, math.ceil(total / ticks))


def sweep(pool: ConnectionPool, fetcher: Fetcher, settings: LinkCheckSettings,
          canonical_ids: list[int] | None = None) -> dict:
    """Check the due canonical jobs (a tick's share), or the given ones now."""
    with pool.connection() as conn:
        if canonical_ids is None:
            total = canonical.count_checkable(conn)
            rows = canonical.claim_due_checks(conn, batch_size(total, settings), settings.claim_seconds)
        else:
            rows = canonical.check_targets(conn, canonical_ids)
    counts: dict[str, int] = {}
    for row in rows:
        status = check_canonical(pool, fetcher, settings, row)
        counts[status] = counts.get(status, 0) + 1
    return counts


def check_canonical(pool: ConnectionPool, fetcher: Fetcher, settings: LinkCheckSettings, row: CheckTarget) -> str:
    """Check one canonical job's job URL and apply URL, record each check and return its new link status."""
    outcomes = []
    for role in ("url", "apply_url"):
        url = getattr(row, role)
        if not url or (role == "apply_url" and url == row.url):
            continue
        answer = fetcher.check(url)
        outcome = answer.outcome
        if outcome == "deferred":
            outcomes.append(outcome)
            continue
        with pool.connection() as conn, conn.transaction():
            if outcome == "broken":
                hours_ago = canonical.hours_since_first_failure(conn, row.id, role, url)
                confirmed = hours_ago is not None and hours_ago >= settings.confirm_hours
                outcome = "broken" if confirmed else "suspect"
            canonical.insert_link_check(conn, {
                "canonical_id": row.id, "role": role, "url": url, "method": answer.method,
                "status": answer.status, "outcome": outcome, "target": answer.target, "error": answer.error})
        outcomes.append(outcome)
    known = [o for o in outcomes if o in SEVERITY]
    with pool.connection() as conn, conn.transaction():
        current = canonical.lock_link_status(conn, row.id)
        if "deferred" in outcomes:  # not checked: soon again, the status stands
            status, next_seconds = current, 3600.0
        elif "suspect" in outcomes:  # a first failure: keep the status, look again once the confirm time passed
            status = current if current != "broken" else "broken"
            next_seconds = settings.confirm_hours * 3600
        else:
            status = max(known, key=SEVERITY.get) if known else current
            next_seconds = settings.interval_hours * 3600
        canonical.set_link_status(conn, row.id, status, next_seconds)
        if status != current:
            canonical.add_event(conn, row.id, f"link_{status}", {"from": current, "outcomes": outcomes})
    return status


def make_fetcher(pool: ConnectionPool, settings) -> Fetcher:
    """The fetcher the crawls' settings describe: the same limiter, policies and guard."""
    limiter = Limiter(pool, lease_seconds=settings.getfloat("POLITENESS_LEASE_SECONDS"),
                      poll_seconds=settings.getfloat("POLITENESS_POLL_SECONDS"),
                      backoff=Backoff(settings.getfloat("POLITENESS_BACKOFF_BASE"),
                                      settings.getfloat("POLITENESS_BACKOFF_MAX"),
                                      settings.getfloat("POLITENESS_BACKOFF_JITTER")))
    return Fetcher(limiter, Policies.from_settings(settings), FetchGuard.from_settings(settings),
                   LinkCheckSettings.from_settings(settings))
