"""Ask scrapyd to run every active source whose next_crawl_at has passed (``scrapy schedule-due``)."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from psycopg_pool import ConnectionPool

from gigflow.sql import load_sql

_SQL = "gigflow.politeness"


@dataclass(frozen=True)
class Scheduled:
    source_id: str
    spider: str
    job_id: str | None
    error: str | None = None


def due_sources(pool: ConnectionPool) -> list[dict]:
    with pool.connection() as conn:
        return conn.execute(load_sql(_SQL, "due_sources.sql")).fetchall()


def schedule_job(scrapyd_url: str, project: str, spider: str, source_id: str, timeout: float = 10.0) -> str:
    """POST schedule.json; returns scrapyd's job id or raises RuntimeError with scrapyd's message."""
    data = urllib.parse.urlencode({"project": project, "spider": spider, "source": source_id}).encode()
    url = scrapyd_url.rstrip("/") + "/schedule.json"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method="POST"), timeout=timeout) as resp:
            answer = json.loads(resp.read().decode("utf-8"))
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise RuntimeError(f"scrapyd at {url}: {exc}") from None
    if answer.get("status") != "ok":
        raise RuntimeError(f"scrapyd at {url}: {answer.get('message') or answer}")
    return str(answer.get("jobid"))


def schedule_due(pool: ConnectionPool, scrapyd_url: str, project: str, spiders: set[str],
                 claim_seconds: float, dry_run: bool = False) -> list[Scheduled]:
    """One scrapyd job per due source and strategy that has a spider. A scheduled source is claimed (its
    next_crawl_at moves claim_seconds ahead) so the next call does not schedule it again while it runs; its
    crawl then sets the real next time."""
    results = []
    for row in due_sources(pool):
        types = [s["type"] for s in row["strategies"] if s.get("type") in spiders]
        if not types:
            results.append(Scheduled(row["id"], "", None, "no spider for its strategies"))
            continue
        scheduled_any = False
        for spider in dict.fromkeys(types):
            if dry_run:
                results.append(Scheduled(row["id"], spider, None))
                continue
            try:
                job_id = schedule_job(scrapyd_url, project, spider, row["id"])
            except RuntimeError as exc:
                results.append(Scheduled(row["id"], spider, None, str(exc)))
                continue
            scheduled_any = True
            results.append(Scheduled(row["id"], spider, job_id))
        if scheduled_any:
            with pool.connection() as conn:
                conn.execute(load_sql(_SQL, "set_next_crawl.sql"), {"source_id": row["id"], "seconds": claim_seconds})
    return results
