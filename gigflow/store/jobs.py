"""jobs and job_events: jobs keyed by (source, canonical key), never deleted (``gone_at``), with their history."""

from __future__ import annotations

from gigflow.sql import load_sql


def _sql(name: str) -> str:
    return load_sql("gigflow.store", name)


def jobs_with_external_id(conn, source_id: str, external_id: str) -> list[dict]:
    return conn.execute(_sql("jobs_with_external_id.sql"),
                        {"source_id": source_id, "external_id": external_id}).fetchall()


def rekey_job(conn, source_id: str, old_key: str, new_key: str) -> None:
    conn.execute(_sql("rekey_job.sql"), {"source_id": source_id, "old_key": old_key, "new_key": new_key})


def find_job(conn, params: dict) -> dict | None:
    return conn.execute(_sql("find_job.sql"), params).fetchone()


def insert_job(conn, params: dict) -> dict | None:
    """The new job's id; None when another writer inserted the key meanwhile."""
    return conn.execute(_sql("insert_job.sql"), params).fetchone()


def update_job(conn, params: dict) -> bool:
    """Write the job's new content; False (nothing written) when only its sighting would change."""
    return conn.execute(_sql("update_job.sql"), params).fetchone() is not None


def touch_job(conn, job_id: int, run_id: int) -> None:
    """Record that this run saw the unchanged job (a narrow, HOT-friendly update)."""
    conn.execute(_sql("touch_job.sql"), {"id": job_id, "run_id": run_id})


def insert_job_event(conn, job_id: int, run_id: int | None, kind: str, fields: list[str]) -> None:
    conn.execute(_sql("insert_job_event.sql"), {"job_id": job_id, "run_id": run_id, "kind": kind, "fields": fields})


def run_job_counts(conn, source_id: str, spider: str, run_id: int) -> dict:
    """Jobs this run saw, and jobs earlier runs of this strategy saw that this one did not (at risk of gone)."""
    return conn.execute(_sql("run_job_counts.sql"),
                        {"source_id": source_id, "spider": spider, "run_id": run_id}).fetchone()


def mark_gone(conn, source_id: str, spider: str, run_id: int, owner_token: str) -> int:
    """Mark gone the jobs earlier runs of this strategy saw and this complete run did not; how many. Nothing is
    marked unless ``owner_token`` owns the run and the run is still open (checked in the same statement)."""
    return conn.execute(_sql("mark_gone.sql"), {"source_id": source_id, "run_id": run_id, "spider": spider,
                                                "token": owner_token}).rowcount
