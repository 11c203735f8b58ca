"""The review queue on a real PostgreSQL: finalization triggers, shared job ids, hourly limit, enqueue failures."""

import json
from datetime import datetime, timedelta, timezone

import pytest

from gigflow.noise.learn.lifecycle.review_learner import make_learner
from gigflow.noise.learn.lifecycle.queue import ReviewRuntime, request_review, review_lock, run_worker
from gigflow.noise.learn.lifecycle.review import ReviewKind
from gigflow.noise.learn.settings import NoiseSettings
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


def crawled_demo(pool, server) -> int:
    """The demo source crawled once (5 stored pages, one waiting review request); returns its configuration id."""
    import_demo(pool, server)
    crawl("href", "demo")
    return get_source(pool, "demo").configuration_id


def set_last_automatic_cycle(pool, configuration_id, minutes_ago):
    at = (datetime.now(timezone.utc) - timedelta(minutes=minutes_ago)).isoformat()
    with pool.connection() as conn:
        conn.execute("UPDATE configurations SET config = jsonb_set(config, '{noiseReview}', %s::jsonb) WHERE id = %s",
                     (json.dumps({"lastAutomaticAt": at}), configuration_id))


def rules_runtime(pool, **overrides):
    return ReviewRuntime(pool=pool, learner=make_learner(NoiseSettings(classifier="rules")), **overrides)


def stored_filter(pool, configuration_id):
    with pool.connection() as conn:
        return conn.execute("SELECT config -> 'noiseFilter' AS f FROM configurations WHERE id = %s",
                            (configuration_id,)).fetchone()["f"]


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
    configuration_id = crawled_demo(pool, fixture_server)
    set_last_automatic_cycle(pool, configuration_id, minutes_ago=5)

    def learner_must_not_run(*args, **kwargs):
        raise AssertionError("a deferred review must not learn")

    caplog.set_level("INFO", logger="gigflow.events")
    run_worker(database_url, ReviewRuntime(pool=pool, learner=learner_must_not_run), once=True)
    [job] = waiting_jobs(pool)
    assert job["queueing_lock"] == review_lock(configuration_id, ReviewKind.source)
    delay = (job["scheduled_at"] - datetime.now(timezone.utc)).total_seconds()
    assert 590 <= delay <= 600
    deferred = [e for e in events(caplog.text) if e["event"] == "review_deferred"]
    assert deferred and deferred[0]["seconds"] == pytest.approx(600, abs=1)
    with pool.connection() as conn:  # finished jobs are deleted so the id can be reused
        assert conn.execute("SELECT count(*) AS n FROM procrastinate_jobs WHERE status <> 'todo'").fetchone()["n"] == 0


def test_the_worker_learns_saves_and_then_skips_unchanged_samples_without_using_a_slot(pool, fixture_server,
                                                                                     database_url, caplog):
    configuration_id = crawled_demo(pool, fixture_server)
    caplog.set_level("INFO", logger="gigflow.events")
    run_worker(database_url, rules_runtime(pool), once=True)
    saved = stored_filter(pool, configuration_id)
    assert saved and saved["rules"] and len(saved["samples"]) == 5
    names = [e["event"] for e in events(caplog.text)]
    assert names[:3] == ["review_started", "review_completed", "filter_saved"]

    # the same samples again: skipped before the hourly gate, no new cycle recorded, nothing deferred
    with pool.connection() as conn:
        cycle = conn.execute("SELECT config -> 'noiseReview' AS r FROM configurations WHERE id = %s",
                             (configuration_id,)).fetchone()["r"]
    caplog.clear()
    request_review(pool, configuration_id, ReviewKind.scheduled)
    run_worker(database_url, rules_runtime(pool), once=True)
    skipped = [e for e in events(caplog.text) if e["event"] == "review_skipped"]
    assert skipped and "unchanged" in skipped[0]["reason"]
    assert not waiting_jobs(pool)
    with pool.connection() as conn:
        assert conn.execute("SELECT config -> 'noiseReview' AS r FROM configurations WHERE id = %s",
                            (configuration_id,)).fetchone()["r"] == cycle


def test_a_manual_review_bypasses_the_hourly_limit(pool, fixture_server, database_url, caplog):
    configuration_id = crawled_demo(pool, fixture_server)
    set_last_automatic_cycle(pool, configuration_id, minutes_ago=1)
    request_review(pool, configuration_id, ReviewKind.manual)
    caplog.set_level("INFO", logger="gigflow.events")
    run_worker(database_url, rules_runtime(pool), once=True)
    kinds = {(e["event"], e.get("kind")) for e in events(caplog.text)}
    assert ("review_started", "manual") in kinds and ("review_deferred", "source") in kinds
    assert stored_filter(pool, configuration_id)["rules"]


def test_samples_whose_bytes_no_longer_match_their_hash_do_not_count(pool, fixture_server, database_url, caplog):
    configuration_id = crawled_demo(pool, fixture_server)
    with pool.connection() as conn:  # three stored bodies damaged: two readable samples are too few
        conn.execute("UPDATE bodies SET body = 'damaged'::bytea WHERE sha256 IN "
                     "(SELECT sha256 FROM source_versions ORDER BY id LIMIT 3)")
    caplog.set_level("INFO", logger="gigflow.events")
    run_worker(database_url, rules_runtime(pool), once=True)
    [skipped] = [e for e in events(caplog.text) if e["event"] == "review_skipped"]  # no periodic scan in --once
    assert "2 usable sample(s), 3 needed" in skipped["reason"] and "do not match the stored sha256" in skipped["reason"]
    assert stored_filter(pool, configuration_id) is None


def test_a_failing_review_is_attempted_three_times_and_saves_nothing(pool, fixture_server, database_url, caplog):
    configuration_id = crawled_demo(pool, fixture_server)
    calls = []

    def failing_learner(pages, previous, **kwargs):
        calls.append(len(pages))
        raise RuntimeError("model endpoint unreachable")

    caplog.set_level("INFO", logger="gigflow.events")
    runtime = ReviewRuntime(pool=pool, learner=failing_learner, cycle_seconds=0)
    for _ in range(3):  # retries are scheduled a few seconds later; run them now
        with pool.connection() as conn:
            conn.execute("UPDATE procrastinate_jobs SET scheduled_at = now() WHERE status = 'todo'")
        run_worker(database_url, runtime, once=True)
    assert len(calls) == 3
    names = [e["event"] for e in events(caplog.text)]
    assert names.count("review_retried") == 2 and names.count("review_failed") == 1
    assert stored_filter(pool, configuration_id) is None
    with pool.connection() as conn:  # the failed job is deleted so the id can be reused
        assert conn.execute("SELECT count(*) AS n FROM procrastinate_jobs").fetchone()["n"] == 0
