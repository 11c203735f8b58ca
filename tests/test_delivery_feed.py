"""The change feed over real HTTP: events committed out of id order are held back until nothing can land behind
the cursor; under concurrent writers (and a server restart) a reader that keeps its cursor gets every event
exactly once, in order."""

from __future__ import annotations

import random
import threading
import time

import psycopg
import pytest
from psycopg.rows import dict_row

from delivery_helpers import ApiServer, add_source, add_token, insert_job, publish


def _seed(pool, n: int = 4) -> list[int]:
    add_source(pool, "acme-feed")
    with pool.connection() as conn:
        ids = [insert_job(conn, "acme-feed", i, title=f"Welder {i}") for i in range(n)]
    publish(pool)
    return ids


def _event(conn, job_id: int, field: str) -> str:
    """An 'updated' event as the store writes it, named by its (unique) field."""
    from gigflow.store import jobs as store_jobs

    store_jobs.insert_job_event(conn, job_id, None, "updated", [field])
    return field


def _drain_until(api, token, cursor, count, limit=3, seconds=10.0):
    """Drain until ``count`` changes came: a transaction of another database that ends while the feed looks can
    hold it back for a moment (counted as ours: waiting is safe, skipping is not)."""
    got, deadline = [], time.monotonic() + seconds
    while len(got) < count and time.monotonic() < deadline:
        more, cursor = _drain(api, token, cursor, limit)
        got += more
        if len(got) < count:
            time.sleep(0.05)
    return got, cursor


def _drain(api, token, cursor, limit=3):
    """Every change after ``cursor`` available now, and the cursor to keep."""
    got = []
    while True:
        status, _, body = api.get(f"/api/v1/changes?limit={limit}" + (f"&after={cursor}" if cursor else ""), token)
        assert status == 200, body
        got += body["changes"]
        if body["next"] == cursor:
            return got, cursor
        cursor = body["next"]


def test_an_event_committed_after_a_later_one_is_neither_skipped_nor_repeated(pool, database_url,
                                                                              admin_database_url):
    jobs = _seed(pool)
    token = add_token(pool, "partner", "changes:read")
    with ApiServer(pool) as api:
        first, cursor = _drain_until(api, token, None, 2 * len(jobs))  # created and published, each job
        assert {c["kind"] for c in first} == {"created", "published"}
        assert all(c["job_id"] for c in first)

        slow = psycopg.connect(database_url, row_factory=dict_row)   # a crawl that writes first, commits last
        fast = psycopg.connect(database_url, row_factory=dict_row, autocommit=True)
        other_db = psycopg.connect(admin_database_url, row_factory=dict_row)  # another database's long transaction
        try:
            other_db.execute("SELECT pg_current_xact_id()")
            _event(slow, jobs[0], "title")
            _event(fast, jobs[1], "salary")
            with pool.connection() as conn:  # the slow writer took the smaller id
                ids = conn.execute("SELECT (SELECT max(id) FROM job_events) AS fast,"
                                   " (SELECT last_value FROM job_events_id_seq) AS last").fetchone()
            assert ids["fast"] == ids["last"]
            held, held_cursor = _drain(api, token, cursor)
            # Paging by id would hand out fast_id now and never slow_id: the feed waits for the slow writer.
            assert held == [] and held_cursor == cursor
            slow.commit()
            got, cursor = _drain_until(api, token, cursor, 2)
            # Ordered by transaction: the slow writer's transaction began first.
            assert [(c["kind"], c["fields"], c["sighting_id"]) for c in got] == [
                ("updated", ["title"], jobs[0]), ("updated", ["salary"], jobs[1])]
            assert _drain(api, token, cursor)[0] == []
            # A client that kept an older cursor (a change's own) resumes right after it.
            again, _ = _drain_until(api, token, got[0]["cursor"], 1)
            assert [c["fields"] for c in again] == [["salary"]]
        finally:
            for conn in (slow, fast, other_db):
                conn.close()
        status, _, body = api.get("/api/v1/changes?after=bogus", token)
        assert status == 400 and "cursor" in body["error"]
        status, _, body = api.get("/api/v1/changes?after=latest", token)
        assert body["changes"] == [] and _drain(api, token, body["next"])[0] == []


@pytest.mark.timeout(120)
def test_a_reader_paging_while_writers_commit_concurrently_sees_every_event_once(pool, database_url):
    jobs = _seed(pool)
    token = add_token(pool, "partner", "changes:read")
    _, start = _drain_once(pool, token, 2 * len(jobs))
    written: list[str] = []
    lock = threading.Lock()
    errors: list[BaseException] = []

    def writer(seed: int) -> None:
        rnd = random.Random(seed)
        try:
            with psycopg.connect(database_url, row_factory=dict_row) as conn:
                for n in range(40):
                    ids = [_event(conn, rnd.choice(jobs), f"f{seed}_{n}_{k}") for k in range(rnd.randint(1, 3))]
                    time.sleep(rnd.random() * 0.02)  # commit later than others that inserted after us
                    if rnd.random() < 0.1:
                        conn.rollback()  # an aborted crawl's events never appear
                    else:
                        conn.commit()
                        with lock:
                            written.extend(ids)
        except BaseException as exc:  # surfaced by the main thread
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(seed,)) for seed in range(4)]
    received: list[dict] = []
    cursor = start
    server = ApiServer(pool).__enter__()
    try:
        for thread in threads:
            thread.start()
        restarted = False
        while any(t.is_alive() for t in threads):
            got, cursor = _drain(server, token, cursor, limit=4)
            received += got
            if not restarted and received:  # the API restarts mid-stream; the client keeps its cursor
                server.__exit__(None, None, None)
                server = ApiServer(pool).__enter__()
                restarted = True
        for thread in threads:
            thread.join()
        if not restarted:  # the writers were done before the first page: restart before the rest
            server.__exit__(None, None, None)
            server = ApiServer(pool).__enter__()
            restarted = True
        got, cursor = _drain_until(server, token, cursor, len(written) - len(received), limit=4)
        received += got
    finally:
        server.__exit__(None, None, None)
    assert not errors and restarted
    positions = [c["cursor"] for c in received]
    assert len(positions) == len(set(positions))  # nothing twice
    assert sorted(c["fields"][0] for c in received) == sorted(written)  # nothing missed, no rolled-back event


def _drain_once(pool, token, count):
    with ApiServer(pool) as api:
        return _drain_until(api, token, None, count)
