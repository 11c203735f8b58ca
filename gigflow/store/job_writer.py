"""Writing jobs: the identity rules (``identity``) applied against what the source has stored, and the events
that say why a job changed. Used by the storage pipeline and by ``scrapy jobs reextract``."""

from __future__ import annotations

from dataclasses import dataclass, field

from psycopg.types.json import Jsonb

from gigflow.store.job_identity import id_key, page_keys, posting, same_posting, url_key
from gigflow.store import jobs as store_jobs
from gigflow.store.jobs import JobRow

# Compared to name the fields an update changed (fields holds every extracted field but evidence and raw).
_COLUMNS = ("title", "url", "external_id")


@dataclass
class JobWriter:
    """Writes the jobs of one run (``run_id``), or of a re-extraction outside any run (``run_id=None``).

    ``run_ids`` remembers which posting (title, location) each external id stood for in this run: an id that
    stands for two postings is no identity.
    """

    run_id: int | None
    run_ids: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    def write_page(self, conn, *, source_id: str, page_url: str, jobs: list[dict], version_id: int | None,
                   parser_key: str, parser_version: str, confidence: float, reextract: bool = False) -> dict:
        """Upsert every job of one page; returns counts by outcome (new, seen, changed, revived, reextracted)
        and the warnings worth recording (shared URLs)."""
        counts = {"new": 0, "seen": 0, "changed": 0, "revived": 0, "reextracted": 0, "warnings": []}
        ids, url_keys = page_keys(jobs, page_url)
        shared = sum(1 for key in url_keys if "#entry:" in key)
        if shared:
            counts["warnings"].append(f"{shared} jobs share a URL on {page_url}; told apart by title and location")
        for job, trusted, fallback in zip(jobs, ids, url_keys):
            key = self.resolve_key(conn, source_id, trusted, fallback, job)
            outcome = self.write_job(conn, source_id=source_id, key=key, job=job, version_id=version_id,
                                     parser_key=parser_key, parser_version=parser_version, confidence=confidence,
                                     reextract=reextract)
            for name in outcome:
                counts[name] += 1
        return counts

    def resolve_key(self, conn, source_id: str, external_id: str | None, fallback: str, job: dict) -> str:
        """``id:<external id>`` while the id has been an identity; else the URL key."""
        if external_id is None:
            return fallback
        key = id_key(external_id)
        earlier = self.run_ids.setdefault((source_id, external_id), posting(job))
        rows = store_jobs.jobs_with_external_id(conn, source_id, external_id)
        if not same_posting(earlier, posting(job)) or any(not row.canonical_key.startswith("id:") for row in rows):
            # Shared by two pages of this run, or shown to be shared before: the job stored under the id moves
            # to its own URL key, and this one takes its URL key.
            for row in rows:
                if row.canonical_key == key and row.url:
                    store_jobs.rekey_job(conn, source_id, key, url_key(row.url))
            return fallback
        return key

    def write_job(self, conn, *, source_id: str, key: str, job: dict, version_id: int | None, parser_key: str,
                  parser_version: str, confidence: float, reextract: bool = False) -> list[str]:
        params = {
            "canonical_key": key, "source_id": source_id, "source_version_id": version_id,
            "title": job["title"], "url": job.get("url"), "external_id": job.get("external_id"),
            "fields": Jsonb(fields_of(job)), "evidence": Jsonb(job.get("evidence", {})),
            "confidence": confidence, "parser_key": parser_key, "parser_version": parser_version,
            "run_id": self.run_id,
        }
        old = store_jobs.find_job(conn, params)
        if old is None:
            new_id = store_jobs.insert_job(conn, params)
            if new_id is not None:
                self.event(conn, new_id, "seen")
                return ["new"]
            old = store_jobs.find_job(conn, params)  # inserted meanwhile
        if not store_jobs.update_job(conn, {**params, "id": old.id}) and self.run_id is not None:
            store_jobs.touch_job(conn, old.id, self.run_id)
        outcome = ["seen"]
        changed = changed_fields(old, job)
        if old.gone_at is not None and self.run_id is not None:
            self.event(conn, old.id, "revived")
            outcome.append("revived")
        if changed:
            self.event(conn, old.id, "updated", changed)
            outcome.append("changed")
        if reextract or old.parser_version != parser_version:
            self.event(conn, old.id, "reextracted", [f"parser_version:{old.parser_version}->{parser_version}"]
                       if old.parser_version != parser_version else [])
            outcome.append("reextracted")
        return outcome

    def event(self, conn, job_id: int, kind: str, fields: list[str] | None = None) -> None:
        store_jobs.insert_job_event(conn, job_id, self.run_id, kind, fields or [])


def fields_of(job: dict) -> dict:
    return {k: v for k, v in job.items() if k not in ("evidence", "raw")}


def changed_fields(old: JobRow, job: dict) -> list[str]:
    before, after = old.fields or {}, fields_of(job)
    names = {name for name in set(before) | set(after) if before.get(name) != after.get(name)}
    names |= {name for name in _COLUMNS if getattr(old, name) != job.get(name)}
    return sorted(names)
