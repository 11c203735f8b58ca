"""Entity resolution: link each live per-source job to one canonical job (a real vacancy), with evidence and a
score; `unmerge` reverses a link for good."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool

from gigflow.maintenance.matching import best_candidate, employer_key, match_keys, simhash
from gigflow.sql import load_sql

_SQL = "gigflow.maintenance"


@dataclass(frozen=True)
class ResolveSettings:
    threshold: float = 0.9        # MAINTENANCE_MATCH_THRESHOLD
    block_limit: int = 500        # MAINTENANCE_BLOCK_LIMIT
    spread_seconds: float = 86400.0  # LINKCHECK_INTERVAL_HOURS * 3600: when a new canonical job is first checked

    @classmethod
    def from_settings(cls, settings) -> "ResolveSettings":
        return cls(threshold=settings.getfloat("MAINTENANCE_MATCH_THRESHOLD"),
                   block_limit=settings.getint("MAINTENANCE_BLOCK_LIMIT"),
                   spread_seconds=settings.getfloat("LINKCHECK_INTERVAL_HOURS") * 3600)


class UnmergeError(ValueError):
    pass


def sighting(row: dict) -> dict:
    """The fields matching reads from a stored job row."""
    fields = row.get("fields") or {}
    return {"title": row["title"], "url": row.get("url"), "apply_url": fields.get("apply_url", row.get("apply_url")),
            "external_id": row.get("external_id"), "parser_key": row.get("parser_key"),
            "location": fields.get("location", row.get("location")), "description": fields.get("description"),
            "employer": fields.get("employer") or row.get("company"), "source_id": row.get("source_id")}


def _posting(job: dict) -> tuple[str, str]:
    return (re.sub(r"\W+", " ", (job.get("title") or "").lower()).strip(),
            re.sub(r"\W+", " ", (job.get("location") or "").lower()).strip())


def ambiguous_keys(jobs: list[dict]) -> set[str]:
    """Keys one source gives to different postings (a shared /apply page, one board URL): no identity."""
    postings: dict[str, set] = defaultdict(set)
    for job in jobs:
        for key in match_keys(job):
            postings[key].add(_posting(job))
    return {key for key, seen in postings.items() if len(seen) > 1}


def resolve(pool: ConnectionPool, settings: ResolveSettings = ResolveSettings(),
            source_id: str | None = None) -> dict:
    """Link every unlinked live job; returns counts (linked to an existing canonical job, new, folded, skipped:
    linked meanwhile by another resolver)."""
    counts = {"jobs": 0, "linked": 0, "new": 0, "folded": 0, "skipped": 0}
    with pool.connection() as conn:
        jobs = conn.execute(load_sql(_SQL, "unlinked_jobs.sql"), {"source_id": source_id}).fetchall()
    ambiguous_by_source: dict[str, set[str]] = {}
    for row in jobs:
        if row["source_id"] not in ambiguous_by_source:
            with pool.connection() as conn:
                peers = conn.execute(load_sql(_SQL, "source_job_links.sql"), {"source_id": row["source_id"]})
                ambiguous_by_source[row["source_id"]] = ambiguous_keys([sighting(p) for p in peers])
        job = sighting(row)
        keys = {k: v for k, v in match_keys(job).items() if k not in ambiguous_by_source[row["source_id"]]}
        job["simhash"] = simhash(job["description"])
        outcome = _link(pool, row["id"], job, keys, settings)
        counts["jobs"] += 1
        counts[outcome["kind"]] += 1
        counts["folded"] += outcome["folded"]
    return counts


def _link(pool: ConnectionPool, job_id: int, job: dict, keys: dict[str, str], settings: ResolveSettings) -> dict:
    employer = employer_key(job["employer"])
    with pool.connection() as conn, conn.transaction():
        conn.execute(load_sql(_SQL, "lock_employer.sql"), {"employer_key": employer})
        if conn.execute(load_sql(_SQL, "is_linked.sql"), {"job_id": job_id}).fetchone()["linked"]:
            return {"kind": "skipped", "folded": 0}
        evidence: list[dict] = []
        exact = conn.execute(load_sql(_SQL, "exact_candidates.sql"),
                             {"keys": list(keys), "job_id": job_id}).fetchall()
        matched: dict[int, list[dict]] = defaultdict(list)
        for cand in exact:
            for key in sorted(set(cand["match_keys"]) & set(keys)):
                matched[cand["canonical_id"]].append({"kind": keys[key], "key": key, "with_job": cand["job_id"]})
        score = 1.0
        if not matched and employer:
            best = _best_fuzzy(conn, job_id, job, employer, settings)
            if best:
                found, cand = best
                score = found.score
                matched[cand["canonical_id"]].append({"kind": "similar", "with_job": cand["job_id"],
                                                      "score": found.score, **found.parts})
        folded = 0
        if matched:
            canonical_id = min(matched)
            for other in sorted(matched):
                if other != canonical_id and conn.execute(load_sql(_SQL, "separated.sql"),
                                                          {"a": canonical_id, "b": other}).fetchone()["separated"]:
                    continue  # an unmerge keeps them apart: the job joins the first only
                evidence.extend(matched[other])
                if other != canonical_id:
                    conn.execute(load_sql(_SQL, "fold_canonical.sql"), {"into": canonical_id, "from": other})
                    _event(conn, other, "folded", {"into": canonical_id, "by_job": job_id})
                    folded += 1
            kind = "linked"
        else:
            canonical_id = conn.execute(load_sql(_SQL, "insert_canonical.sql"),
                                        {"employer_key": employer,
                                         "spread_seconds": settings.spread_seconds}).fetchone()["id"]
            evidence = [{"kind": "first_sighting"}]
            kind = "new"
        conn.execute(load_sql(_SQL, "insert_link.sql"), {
            "job_id": job_id, "canonical_id": canonical_id, "evidence": Jsonb(evidence), "score": score,
            "match_keys": sorted(keys), "simhash": job["simhash"]})
        if kind == "linked":
            _event(conn, canonical_id, "merged", {"job_id": job_id, "score": score, "evidence": evidence})
        else:  # the change feed announces a new vacancy with this
            _event(conn, canonical_id, "created", {"job_id": job_id})
    return {"kind": kind, "folded": folded}


def _best_fuzzy(conn, job_id: int, job: dict, employer: str, settings: ResolveSettings):
    by_canonical: dict[int, list[dict]] = defaultdict(list)
    for cand in conn.execute(load_sql(_SQL, "fuzzy_candidates.sql"),
                             {"employer_key": employer, "job_id": job_id, "limit": settings.block_limit}):
        by_canonical[cand["canonical_id"]].append(cand)
    chosen = best_candidate(job, by_canonical, settings.threshold)
    return (chosen[1], chosen[2]) if chosen else None


def unmerge(pool: ConnectionPool, job_id: int) -> dict:
    """Move one sighting to a canonical job of its own; the resolver never links it to the old one again."""
    with pool.connection() as conn, conn.transaction():
        link = conn.execute(load_sql(_SQL, "find_link.sql"), {"job_id": job_id}).fetchone()
        if link is None:
            raise UnmergeError(f"job {job_id} is not linked to a canonical job (job ids: `scrapy jobs --format table`)")
        if link["sightings"] < 2:
            raise UnmergeError(f"job {job_id} is the only sighting of canonical job {link['canonical_id']}: "
                               "nothing to unmerge")
        new_id = conn.execute(load_sql(_SQL, "insert_canonical.sql"),
                              {"employer_key": link["employer_key"], "spread_seconds": 0}).fetchone()["id"]
        conn.execute(load_sql(_SQL, "separate_link.sql"), {"job_id": job_id, "old": link["canonical_id"],
                                                           "new": new_id})
        _event(conn, link["canonical_id"], "unmerged", {"job_id": job_id, "to": new_id})
        _event(conn, new_id, "unmerged", {"job_id": job_id, "from": link["canonical_id"]})
    return {"job_id": job_id, "from": link["canonical_id"], "to": new_id}


def _event(conn, canonical_id: int, kind: str, detail: dict) -> None:
    conn.execute(load_sql(_SQL, "insert_event.sql"), {"canonical_id": canonical_id, "kind": kind,
                                                      "detail": Jsonb(detail)})
