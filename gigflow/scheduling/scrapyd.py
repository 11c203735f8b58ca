"""Ask scrapyd nodes to run every active source whose next_crawl_at has passed (``scrapy schedule-due``).

Sources are spread over the nodes by free slots (the node's slots minus the running and pending jobs its
``daemonstatus.json`` reports). A source is claimed in PostgreSQL before any node hears of it (``crawl_claims``,
migration 0004): two ``schedule-due`` running at once claim disjoint sources, and a source whose crawl is running
anywhere (its claim is live) is not scheduled again. The crawl releases the claim when it closes
(``AdaptiveScheduleExtension``); a claim whose holding process died is taken again by the next pass (its
liveness key is free, migration 0022), else it ends after ``SCHEDULE_CLAIM_SECONDS``.

Passes run one at a time (an advisory lock around poll, claim and schedule), so the node slots one pass fills are
counted by the next one's poll instead of twice. A node that is slow or down is skipped with a warning."""

from __future__ import annotations

import http.client
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from psycopg_pool import ConnectionPool

from gigflow.politeness.keys import Policies
from gigflow.scheduling import claims
from gigflow.scheduling.batch import plan_jobs, politeness_key, strategy_from_json
from gigflow.scheduling.claims import DueSource

logger = logging.getLogger(__name__)


_SCHEDULING_ONLY = frozenset({"SCHEDULE_SOURCES_PER_JOB", "SCHEDULE_DUE_CRON"})


class NodeError(RuntimeError):
    """A scrapyd node could not be reached or refused a request; the message names the node."""


class NodeTimeout(NodeError):
    """The node took the request but did not answer in time: it may have acted on it (a job may be queued there)."""


@dataclass
class Node:
    url: str
    slots: int
    free: int = 0
    error: str | None = None


@dataclass(frozen=True)
class Scheduled:
    source_id: str
    spider: str
    job_id: str | None
    error: str | None = None
    node: str | None = None


@dataclass(frozen=True)
class ScheduleRequest:
    """Everything one ``schedule-due`` pass needs; built from settings by the command and the periodic task."""

    nodes: list[tuple[str, int]]
    project: str
    spiders: frozenset[str]
    claim_seconds: float
    job_settings: dict[str, str] = field(default_factory=dict)
    timeout: float = 10.0
    sources_per_job: int = 1
    policies: Policies = field(default_factory=lambda: Policies(0.0))  # for the sources' politeness keys
    ats_base_urls: dict = field(default_factory=dict)


def _json(setting: str, text: str):
    try:
        return json.loads(text)
    except ValueError as exc:
        raise ValueError(f"{setting} is not valid JSON: {exc}") from None


def parse_nodes(value, default_url: str, default_slots: int) -> list[tuple[str, int]]:
    """``SCRAPYD_NODES``: a list (or comma-separated string) of URLs, each optionally ``URL=SLOTS``, or a dict
    URL -> slots; empty means ``SCRAPYD_URL`` alone. Raises ValueError naming a bad entry."""
    if isinstance(value, str):
        text = value.strip()
        value = _json("SCRAPYD_NODES", text) if text[:1] in "[{" else [p for p in text.split(",") if p.strip()]
    if isinstance(value, dict):
        entries = [(str(url), slots) for url, slots in value.items()]
    else:
        entries = []
        for item in value or []:
            url, _, slots = str(item).strip().rpartition("=") if "=" in str(item) else (str(item).strip(), "", None)
            entries.append((url, default_slots if slots is None else slots))
    nodes = []
    for url, slots in entries or [(default_url, default_slots)]:
        parts = urllib.parse.urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"SCRAPYD_NODES: {url!r} is not an http(s) URL")
        try:
            count = int(slots)
        except (TypeError, ValueError):
            raise ValueError(f"SCRAPYD_NODES: slots for {url!r} must be a whole number, not {slots!r}") from None
        if count < 1:
            raise ValueError(f"SCRAPYD_NODES: slots for {url!r} must be at least 1")
        nodes.append((url.strip().rstrip("/"), count))
    return nodes


def job_settings_from(cmdline: list[str] | None, configured) -> dict[str, str]:
    """Settings each job gets: ``SCRAPYD_JOB_SETTINGS`` (a dict, or its JSON), then the ``-s NAME=VALUE`` given
    to schedule-due (they win). Scheduling's own settings (``SCRAPYD_*`` and those a crawl never reads) stay here."""
    if isinstance(configured, str):
        configured = _json("SCRAPYD_JOB_SETTINGS", configured) if configured.strip() else {}
    if not isinstance(configured, dict):
        raise ValueError("SCRAPYD_JOB_SETTINGS must be a dict of setting name -> value")
    merged = {str(k): v if isinstance(v, str) else json.dumps(v) for k, v in configured.items()}
    for item in cmdline or []:
        name, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"-s {item!r}: expected NAME=VALUE")
        merged[name] = value
    return {k: v for k, v in merged.items() if not k.startswith("SCRAPYD_") and k not in _SCHEDULING_ONLY}


def _call(url: str, data: dict | list | None, timeout: float) -> dict:
    body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            answer = json.loads(resp.read().decode("utf-8"))
    except TimeoutError as exc:  # connected and sent, no answer in time (a connect timeout is a URLError)
        raise NodeTimeout(f"scrapyd at {url}: no answer within {timeout:g} s ({exc})") from None
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as exc:
        raise NodeError(f"scrapyd at {url}: {exc}") from None
    if not isinstance(answer, dict) or answer.get("status") != "ok":
        message = answer.get("message") if isinstance(answer, dict) else None
        raise NodeError(f"scrapyd at {url}: {message or answer}")
    return answer


def free_slots(node: Node, timeout: float) -> int:
    """The node's slots minus its running and pending jobs (``daemonstatus.json``)."""
    answer = _call(node.url + "/daemonstatus.json", None, timeout)
    busy = int(answer.get("running", 0)) + int(answer.get("pending", 0))
    return max(0, node.slots - busy)


def schedule_job(node_url: str, project: str, spider: str, source_ids: list[str] | str, job_id: str,
                 settings: dict[str, str], timeout: float = 10.0) -> str:
    """POST schedule.json with the sources (``source=ID`` for one, ``sources=ID,ID,...`` for several), our job id
    and ``setting=NAME=VALUE`` pairs; returns the job id."""
    ids = [source_ids] if isinstance(source_ids, str) else list(source_ids)
    sources = ("source", ids[0]) if len(ids) == 1 else ("sources", ",".join(ids))
    data = [("project", project), ("spider", spider), sources, ("jobid", job_id)]
    data += [("setting", f"{name}={value}") for name, value in settings.items()]
    answer = _call(node_url.rstrip("/") + "/schedule.json", data, timeout)
    return str(answer.get("jobid") or job_id)


@dataclass(frozen=True)
class PlannedJob:
    spider: str
    source_ids: list[str]


def _spiders_for(row: DueSource, spiders: frozenset[str]) -> list[str]:
    return list(dict.fromkeys(s["type"] for s in row.strategies if s.get("type") in spiders))


def plan_pass(rows: list[DueSource], request: ScheduleRequest, slots: int) -> tuple[list[PlannedJob], list[str]]:
    """The jobs for one pass over claimed rows: per spider, its (source, politeness key) units packed by
    ``plan_jobs`` into jobs of at most ``sources_per_job``, over that spider's share of the free slots. Also the
    ids of rows no spider can crawl."""
    units: dict[str, list[tuple[str, str]]] = {}
    unplannable = []
    for row in rows:
        spiders = _spiders_for(row, request.spiders)
        if not spiders:
            unplannable.append(row.id)
        for strategy in row.strategies:
            if strategy.get("type") in spiders:
                key = politeness_key(row.id, strategy_from_json(strategy), row.canonical_url,
                                     request.policies, request.ats_base_urls)
                units.setdefault(strategy["type"], []).append((row.id, key))
    total = sum(len(u) for u in units.values()) or 1
    jobs = []
    for spider, spider_units in units.items():
        share = max(1, round(slots * len(spider_units) / total))
        needed = -(-len(spider_units) // request.sources_per_job)  # ceiling
        for source_ids in plan_jobs(spider_units, max(share, needed), request.sources_per_job):
            jobs.append(PlannedJob(spider, source_ids))
    return jobs, unplannable


def _pick(nodes: list[Node], allow_full: bool = False) -> Node | None:
    """The reachable node with the most free slots (the first listed on a tie); with ``allow_full``, also a node
    with none left (a claimed source's further strategies then wait in its queue)."""
    best = max((n for n in nodes if n.error is None), key=lambda n: n.free, default=None)
    return best if best is not None and (best.free > 0 or allow_full) else None


def poll_nodes(request: ScheduleRequest) -> list[Node]:
    """Every node's free slots, asked at once (a slow node costs the pass one timeout, not one each); a node
    that does not answer is skipped for this pass with a warning."""
    nodes = [Node(url, slots) for url, slots in request.nodes]

    def poll(node: Node) -> None:
        try:
            node.free = free_slots(node, request.timeout)
        except NodeError as exc:
            node.error = str(exc)
            logger.warning("skipping %s for this pass: %s", node.url, exc)

    with ThreadPoolExecutor(max_workers=min(16, len(nodes)) or 1) as threads:
        list(threads.map(poll, nodes))
    return nodes


class _PassLock:
    """One schedule-due pass at a time across every process: a session advisory lock on its own connection,
    held from the poll of the nodes to the last job handed out."""

    def __init__(self, pool: ConnectionPool):
        self.pool = pool
        self.conn = None

    def __enter__(self):
        from gigflow.db import connect

        self.conn = connect(self.pool.conninfo, autocommit=True)
        claims.take_pass_lock(self.conn)
        return self

    def __exit__(self, *exc):
        self.conn.close()  # the lock goes with the session


def schedule_due(pool: ConnectionPool, request: ScheduleRequest, dry_run: bool = False) -> tuple[list[Scheduled], list[Node]]:
    """Claim as many due sources as the nodes' free slots take (``sources_per_job`` each), pack them into one job
    per slot (``plan_pass``) and schedule each job on the node with the most free slots.

    A source none of whose jobs could be scheduled is released, so the next pass tries it again."""
    if dry_run:
        return _schedule_due(pool, request, dry_run)
    with _PassLock(pool):
        return _schedule_due(pool, request, dry_run)


def _schedule_due(pool: ConnectionPool, request: ScheduleRequest, dry_run: bool) -> tuple[list[Scheduled], list[Node]]:
    nodes = poll_nodes(request)
    slots = sum(n.free for n in nodes if n.error is None)
    if dry_run:
        with pool.connection() as conn:
            # What a pass would claim; every due source when no node has a free slot (or none answered).
            rows = claims.due_sources(conn, slots * request.sources_per_job or None)
        jobs, unplannable = plan_pass(rows, request, max(slots, 1))
        results = [Scheduled(source_id, "", None, "no spider for its strategies") for source_id in unplannable]
        for job in jobs:
            node = _pick(nodes, allow_full=True)
            if node is not None:
                node.free -= 1
            results += [Scheduled(source_id, job.spider, None, None, node.url if node else None)
                        for source_id in job.source_ids]
        return results, nodes
    if slots <= 0:
        return [], nodes
    with pool.connection() as conn:
        claimed = claims.claim_due_sources(conn, slots * request.sources_per_job, request.claim_seconds)
    jobs, unplannable = plan_pass(claimed, request, slots)
    results = [Scheduled(source_id, "", None, "no spider for its strategies") for source_id in unplannable]
    scheduled: dict[str, list[dict]] = {row.id: [] for row in claimed}
    for job in jobs:
        job_id = uuid.uuid4().hex
        # Every claimed source's job is handed to a node: one past the free slots waits in that node's queue.
        while (node := _pick(nodes, allow_full=True)) is not None:
            try:
                schedule_job(node.url, request.project, job.spider, job.source_ids, job_id, request.job_settings,
                             request.timeout)
            except NodeTimeout as exc:
                # The node may have queued the job: handing it to another node could crawl the sources twice. The
                # claim stays with this node's job; if it never runs, the claim expires (SCHEDULE_CLAIM_SECONDS).
                node.error = str(exc)
                logger.warning("%s; its job %s may be queued there, so it is not handed to another node; skipping "
                               "the node for the rest of this pass", exc, job_id)
            except NodeError as exc:
                node.error = str(exc)  # this node is out for the rest of the pass
                logger.warning("skipping %s for the rest of this pass: %s", node.url, exc)
                continue
            node.free -= 1
            for source_id in job.source_ids:
                scheduled[source_id].append({"spider": job.spider, "node": node.url, "job_id": job_id})
                results.append(Scheduled(source_id, job.spider, job_id, None, node.url))
            break
        else:
            errors = "; ".join(n.error for n in nodes if n.error) or "no node left"
            results += [Scheduled(source_id, job.spider, None, errors) for source_id in job.source_ids]
    with pool.connection() as conn:
        for source_id, source_jobs in scheduled.items():
            if source_jobs:
                claims.record_claim_jobs(conn, source_id, source_jobs)
            else:
                claims.release_claim(conn, source_id)
    return results, nodes
