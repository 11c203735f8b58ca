"""Entity resolution: link each live per-source job to one canonical job (a real vacancy), with evidence and a
score; `unmerge` reverses a link for good."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import asdict, dataclass

from psycopg_pool import ConnectionPool

from gigflow.maintenance import canonical
from gigflow.maintenance.matching import best_candidate, employer_key, fuzzy_match, match_keys, simhash
from gigflow.store import jobs as store_jobs


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


def _page(job: dict) -> str:
    return str(job.get("url") or job.get("external_id") or job.get("id") or "")


def shared_keys(jobs: list[dict]) -> dict[str, int]:
    """Keys that are no identity within one source, with how many of its jobs carry each: a key it gives to
    different postings (a shared /apply page, one board URL), and an apply URL that several of its job pages share
    (a menu, footer or listing link, a general application page), whatever their titles say."""
    postings: dict[str, set] = defaultdict(set)
    pages: dict[str, set] = defaultdict(set)
    for job in jobs:
        # An ATS posting id two pages name is still one posting; a plain link several pages share is not.
        apply_key = {k for k in (match_keys({"apply_url": job.get("apply_url")}) if job.get("apply_url") else {})
                     if k.startswith("link:")}
        for key in match_keys(job):
            postings[key].add(_posting(job))
            if key in apply_key:
                pages[key].add(_page(job))
    shared = {key: len(seen) for key, seen in postings.items() if len(seen) > 1}
    shared.update({key: len(seen) for key, seen in pages.items() if len(seen) > 1})
    return shared


def ambiguous_keys(jobs: list[dict]) -> set[str]:
    """The keys of `shared_keys`."""
    return set(shared_keys(jobs))


def resolve(pool: ConnectionPool, settings: ResolveSettings = ResolveSettings(),
            source_id: str | None = None, should_stop=None) -> dict:
    """Link every unlinked live job; returns counts (linked to an existing canonical job, new, folded, skipped:
    linked meanwhile by another resolver, refused: a merge withheld). ``should_stop()`` is asked between jobs (a
    shutdown ends the work)."""
    counts = {"jobs": 0, "linked": 0, "new": 0, "folded": 0, "skipped": 0, "refused": 0}
    refusals: list[dict] = []
    with pool.connection() as conn:
        jobs = canonical.unlinked_jobs(conn, source_id)
    shared_by_source: dict[str, dict[str, int]] = {}
    withheld: dict[tuple[str, str], list[int]] = defaultdict(list)
    for row in jobs:
        if should_stop is not None and should_stop():
            counts["stopped"] = True
            break
        if row.source_id not in shared_by_source:
            with pool.connection() as conn:
                peers = store_jobs.live_job_keys(conn, row.source_id)
                shared_by_source[row.source_id] = shared_keys([sighting(asdict(p)) for p in peers])
        job = sighting(asdict(row))
        shared = shared_by_source[row.source_id]
        keys = {}
        for key, kind in match_keys(job).items():
            if key in shared:
                withheld[(row.source_id, key)].append(row.id)
            else:
                keys[key] = kind
        job["simhash"] = simhash(job["description"])
        outcome = _link(pool, row.id, job, keys, settings)
        counts["jobs"] += 1
        counts[outcome["kind"]] += 1
        counts["folded"] += outcome["folded"]
        refusals.extend(outcome["refused"])
    for (source, key), job_ids in withheld.items():
        # The merge every job carrying a shared key would have made (one group per source and key).
        refusals.append({"source_id": source, "key": key[:300], "job_ids": job_ids[:20],
                         "why": f"shared by {shared_by_source[source][key]} jobs of the source: no identity"})
    counts["refused"] = len(refusals)
    if refusals:
        counts["refusals"] = refusals[:REPORTED_REFUSALS]
    return counts


REPORTED_REFUSALS = 50  # suspicious merges listed in `jobs resolve`'s answer (all are counted)


def _link(pool: ConnectionPool, job_id: int, job: dict, keys: dict[str, str], settings: ResolveSettings) -> dict:
    employer = employer_key(job["employer"])
    with pool.connection() as conn, conn.transaction():
        canonical.lock_employer(conn, employer)
        if canonical.is_linked(conn, job_id):
            return {"kind": "skipped", "folded": 0}
        evidence: list[dict] = []
        matched: dict[int, list[dict]] = defaultdict(list)
        for cand in canonical.exact_candidates(conn, list(keys), job_id):
            for key in sorted(set(cand.match_keys) & set(keys)):
                matched[cand.canonical_id].append({"kind": keys[key], "key": key, "with_job": cand.job_id})
        score = 1.0
        refused: list[dict] = []
        if not matched and employer:
            best = _best_fuzzy(conn, job_id, job, employer, settings, refused)
            if best:
                found, cand = best
                score = found.score
                matched[cand["canonical_id"]].append({"kind": "similar", "with_job": cand["job_id"],
                                                      "score": found.score, **found.parts})
        folded = 0
        if matched:
            canonical_id = min(matched)
            for other in sorted(matched):
                if other != canonical_id and canonical.separated(conn, canonical_id, other):
                    continue  # an unmerge keeps them apart: the job joins the first only
                evidence.extend(matched[other])
                if other != canonical_id:
                    canonical.fold_canonical(conn, canonical_id, other)
                    canonical.add_event(conn, other, "folded", {"into": canonical_id, "by_job": job_id})
                    folded += 1
            kind = "linked"
        else:
            canonical_id = canonical.insert_canonical(conn, employer, settings.spread_seconds)
            evidence = [{"kind": "first_sighting"}]
            kind = "new"
        canonical.insert_link(conn, job_id, canonical_id, evidence, score, sorted(keys), job["simhash"])
        if kind == "linked":
            canonical.add_event(conn, canonical_id, "merged", {"job_id": job_id, "score": score, "evidence": evidence})
        else:  # the change feed announces a new vacancy with this
            canonical.add_event(conn, canonical_id, "created", {"job_id": job_id})
    return {"kind": kind, "folded": folded, "refused": refused}


def _best_fuzzy(conn, job_id: int, job: dict, employer: str, settings: ResolveSettings,
                refused: list[dict] | None = None):
    by_canonical: dict[int, list[dict]] = defaultdict(list)
    for row in canonical.fuzzy_candidates(conn, employer, job_id, settings.block_limit):
        cand = asdict(row)  # what matching reads: a sighting as a dict
        if cand.get("source_id") == job.get("source_id") and _posting(sighting(cand)) != _posting(job):
            # One source naming two titles or places names two vacancies: never merged on content.
            if refused is not None and len(refused) < REPORTED_REFUSALS and \
                    fuzzy_match(job, sighting(cand)).score >= settings.threshold:
                refused.append({"job_id": job_id, "would_join": cand["canonical_id"], "with_job": cand["job_id"],
                                "why": "same source, other title or location"})
            continue
        by_canonical[cand["canonical_id"]].append(cand)
    chosen = best_candidate(job, by_canonical, settings.threshold)
    return (chosen[1], chosen[2]) if chosen else None


def unmerge(pool: ConnectionPool, job_id: int) -> dict:
    """Move one sighting to a canonical job of its own; the resolver never links it to the old one again."""
    with pool.connection() as conn, conn.transaction():
        link = canonical.find_link(conn, job_id)
        if link is None:
            raise UnmergeError(f"job {job_id} is not linked to a canonical job (job ids: the id column of "
                               f"`scrapy jobs --all`; `scrapy jobs resolve` links new ones)")
        if link.sightings < 2:
            raise UnmergeError(f"job {job_id} is the only sighting of canonical job {link.canonical_id}: "
                               "nothing to unmerge")
        new_id = canonical.insert_canonical(conn, link.employer_key, 0)
        canonical.separate_link(conn, job_id, link.canonical_id, new_id)
        canonical.add_event(conn, link.canonical_id, "unmerged", {"job_id": job_id, "to": new_id})
        canonical.add_event(conn, new_id, "unmerged", {"job_id": job_id, "from": link.canonical_id})
    return {"job_id": job_id, "from": link.canonical_id, "to": new_id}
