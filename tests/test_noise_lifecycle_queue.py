"""The review queue on a real PostgreSQL: finalization triggers, shared job ids, hourly limit, enqueue failures."""

import json
from datetime import datetime, timedelta, timezone

import pytest

from gigflow.noise.lifecycle.queue import ReviewRuntime, request_review, review_lock, run_worker
from gigflow.noise.lifecycle.review import ReviewKind
from gigflow.sources.repository import get_source
from helpers import crawl, import_demo


def events(text: str) -> list[dict]:
    found = []
    for line in text.splitlines():
        start = line.find('{"event"')
        if start >= 0:
            found.append(json.loads(line[start:]))
    return found


def waiting_jobs(pool):
    with pool.connection() as conn:
        return conn.execute("SELECT id, queueing_lock, args, scheduled_at, status FROM procrastinate_jobs"
                            " WHERE status = 'todo' ORDER BY id").fetchall()


def test_finalization_requests_a_review_and_repeats_share_one_job(pool, fixture_server):
    import_demo(pool, fixture_server)
    configuration_id = get_source(pool, "demo").configuration_id
    first = crawl("href", "demo")
    second = crawl("href", "demo")  # unchanged source: still requested, merged into the waiting job
    requested = [e for e in events(first.stderr + second.stderr) if e["event"] == "review_requested"]
    assert len(requested) == 2 and all(e["configuration_id"] == configuration_id for e in requested)
    assert requested[1]["merged_into_waiting_request"] is True
    [job] = waiting_jobs(pool)
    assert job["queueing_lock"] == review_lock(configuration_id, ReviewKind.source)
    assert job["args"] == {"configuration_id": configuration_id, "kind": "source"}


def test_manual_requests_use_their_own_job_id(pool, fixture_server):
    import_demo(pool, fixture_server)
    configuration_id = get_source(pool, "demo").configuration_id
    assert request_review(pool, configuration_id, ReviewKind.scheduled) is not None
    assert request_review(pool, configuration_id, ReviewKind.source) is None  # same automatic id
    assert request_review(pool, configuration_id, ReviewKind.manual) is not None
    assert sorted(j["queueing_lock"] for j in waiting_jobs(pool)) == sorted(
        [review_lock(configuration_id, ReviewKind.scheduled), review_lock(configuration_id, ReviewKind.manual)])


def test_an_enqueue_failure_never_fails_finalization(pool, fixture_server):
    import_demo(pool, fixture_server)
    with pool.connection() as conn:  # break the queue for real: its defer function disappears
        conn.execute("ALTER FUNCTION procrastinate_defer_jobs_v1 RENAME TO procrastinate_defer_jobs_v1_off")
    try:
        result = crawl("href", "demo")
    finally:
        with pool.connection() as conn:
            conn.execute("ALTER FUNCTION procrastinate_defer_jobs_v1_off RENAME TO procrastinate_defer_jobs_v1")
    assert any(e["event"] == "enqueue_failed" for e in events(result.stderr))
    with pool.connection() as conn:
        run = conn.execute("SELECT outcome FROM crawl_runs ORDER BY id DESC LIMIT 1").fetchone()
        jobs = conn.execute("SELECT count(*) AS n FROM jobs").fetchone()["n"]
    assert run["outcome"] == "finished" and jobs == 5


def test_an_automatic_review_inside_the_hour_is_deferred_in_steps_of_at_most_10_minutes(pool, fixture_server,
                                                                                          database_url, caplog):
    import_demo(pool, fixture_server)
    configuration_id = get_source(pool, "demo").configuration_id
    with pool.connection() as conn:
        conn.execute("UPDATE configurations SET config = jsonb_set(config, '{noiseReview}', %s::jsonb) WHERE id = %s",
                     (json.dumps({"lastAutomaticAt": (datetime.now(timezone.utc) - timedelta(minutes=5)).isoformat()}),
                      configuration_id))
    request_review(pool, configuration_id, ReviewKind.source)

    def learner_must_not_run(*args, **kwargs):
        raise AssertionError("a deferred review must not learn")

    caplog.set_level("INFO", logger="gigflow.events")
    run_worker(database_url, ReviewRuntime(pool=pool, learner=learner_must_not_run), once=True)
    [job] = waiting_jobs(pool)
    delay = (job["scheduled_at"] - datetime.now(timezone.utc)).total_seconds()
    assert 590 <= delay <= 600
    deferred = [e for e in events(caplog.text) if e["event"] == "review_deferred"]
    assert deferred and deferred[0]["seconds"] == pytest.approx(600, abs=1)
    with pool.connection() as conn:  # finished jobs are deleted so the id can be reused
        assert conn.execute("SELECT count(*) AS n FROM procrastinate_jobs WHERE status <> 'todo'").fetchone()["n"] == 0
