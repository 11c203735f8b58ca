"""`scrapy noise worker` keeps serving when the database drops every connection (as in a server restart)."""

import os
import subprocess
import sys
import time

from gigflow.noise.learn.lifecycle.queue import request_review
from gigflow.noise.learn.lifecycle.review import ReviewKind
from gigflow.sources.repository import get_source
from helpers import ROOT, crawl, import_demo


def wait_for(predicate, timeout: float, step: float = 0.25):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return False


def test_the_worker_survives_losing_its_database_connections(pool, fixture_server, database_url):
    import_demo(pool, fixture_server)
    crawl("href", "demo", "NOISE_REVIEW_ON_FINALIZE=False")
    configuration_id = get_source(pool, "demo").configuration_id
    env = {k: v for k, v in os.environ.items() if k not in ("GIGFLOW_NOISE_MODEL", "OPENAI_BASE_URL")}
    worker = subprocess.Popen([sys.executable, "-m", "scrapy", "noise", "worker", "-s", "NOISE_CLASSIFIER=rules"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        def worker_registered():
            with pool.connection() as conn:
                return conn.execute("SELECT count(*) AS n FROM procrastinate_workers").fetchone()["n"] > 0

        assert wait_for(worker_registered, 30), "the worker never started"
        with pool.connection() as conn:  # every other session of this database goes, as in a restart
            dropped = conn.execute("SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity"
                                   " WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()["n"]
        assert dropped >= 1
        pool.check()  # our own pool lost connections too
        request_review(pool, configuration_id, ReviewKind.manual)

        def filter_saved():
            with pool.connection() as conn:
                return conn.execute("SELECT config ? 'noiseFilter' AS saved FROM configurations WHERE id = %s",
                                    (configuration_id,)).fetchone()["saved"]

        saved = wait_for(filter_saved, 60)
    finally:
        worker.terminate()
        output = worker.communicate(timeout=30)[0]
    # The worker's own log beside a failure: what it did after losing its connections.
    assert saved, f"the worker did not review after losing its connections:\n{output[-3000:]}"
    assert worker.returncode is not None, output[-2000:]
